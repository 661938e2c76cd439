// The `returns` port over a slice's store: reads through its reader.
import type { StepStore } from '../../engine/step-store.js';
import type { ReturnsPort } from '../ports/returns-port.js';
import { openReturnsOf, orderSummaryOf } from '../returns-repo.js';

export function returnsPort(store: StepStore): ReturnsPort {
  return {
    openOf: (orderId) => openReturnsOf(store.reader, orderId),
    summaryOf: (orderId) => orderSummaryOf(store.reader, orderId),
  };
}
