// Port `notifications`: messages a step queues; the notifications feature sends them after the commit (docs/notifications.md).
import type { NewNotifications } from '../notifications-repo.js';

export interface NotificationsPort {
  /** Writes one queued notifications row per recipient (nothing without recipients); returns their ids in recipient order. */
  queue(message: NewNotifications, now: number): Promise<string[]>;
}
