// Test clock (contract section 6): outbound attempts that became due during an advance are made before it returns.
import type { Db } from '../db/db.js';
import type { OutboxDispatcher } from '../engine/outbox/outbox-dispatcher.js';
import type { DeliveryWorker } from './delivery-worker.js';

/**
 * Runs after the engine's own after-advance hook (sweep, outbox drain). A dispatch running in
 * the background may still hold outbox rows: waiting on their locks lets it commit, a second
 * drain takes what is left, and then the first attempts those dispatches queued are awaited.
 * Retries are durable timers, which the advance itself fires in due order.
 */
export function settleDeliveries(db: Db, outbox: OutboxDispatcher, worker: DeliveryWorker): () => Promise<void> {
  return async () => {
    await db.query('SELECT 1 FROM outbox WHERE dispatched_at IS NULL FOR SHARE');
    await outbox.drain();
    await worker.idle();
  };
}
