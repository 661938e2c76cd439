// The `payouts` port over a slice's store.
import type { StepStore } from '../../engine/step-store.js';
import { reverseScheduledPayouts, schedulePayouts } from '../payouts-repo.js';
import type { PayoutsPort } from '../ports/payouts-port.js';

export function payoutsPort(store: StepStore): PayoutsPort {
  return {
    schedule: (orderId, currency, payouts, now) => schedulePayouts(store.writer, orderId, currency, payouts, now),
    reverseScheduled: async (orderId, now) => {
      await reverseScheduledPayouts(store.writer, orderId, now);
    },
  };
}
