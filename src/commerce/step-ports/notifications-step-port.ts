// The `notifications` port over a slice's store.
import type { StepStore } from '../../engine/step-store.js';
import { queueNotifications } from '../notifications-repo.js';
import type { NotificationsPort } from '../ports/notifications-port.js';

export function notificationsPort(store: StepStore): NotificationsPort {
  return { queue: (message, now) => queueNotifications(store.writer, message, now) };
}
