// Starting an order: the idempotency claim, validation against the workspace, the order row, its documents,
// then the first run slice (spec "Start an order").
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Engine } from '../engine/engine-module.js';
import { firstSliceOrder, newOrderId, recordLinesReadingStartContext, type RecordedOrder } from './new-order.js';
import { linesOfInput, orderFromInput } from './order-from-input.js';
import type { OrderInput } from '../domain/order-input-schema.js';
import { claimIdempotencyKey, type IdempotencyClaim } from './idempotency.js';
import { storeOrderDocument } from './order-documents.js';
import { refuseReturnFlow } from './return-flow.js';

export interface OrderServiceDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

/** What a start asks for (the validated POST /api/v1/orders body, or a channel's equivalent). */
export interface StartOrderCommand {
  flowId: string;
  /** A published version to pin; default the latest published. */
  version?: number;
  input: OrderInput;
  vars?: Record<string, unknown>;
}

export interface StartOrderOptions {
  /** Who started it (`principal.actor`), kept with the order. */
  startedBy: string;
  idempotency?: IdempotencyClaim | null;
  /** The finished order this one restarts. */
  restartedFrom?: string | null;
  /** Documents to copy onto the new order instead of `input.documentText` (restart). */
  copyDocumentsFrom?: string | null;
}

export interface StartOrderOutcome {
  orderId: string;
  /** True when the idempotency key named an order recorded earlier. */
  replayed: boolean;
}

/**
 * Records the order (row, lines, inbound document, start vars) and runs its first slice in one
 * transaction (`runtime.startNew`): a client sees the order started or nothing at all. With an
 * idempotency claim the key is taken first, so a racing request with the same key waits for
 * this transaction and then replays its order; a replay of an order recorded but never started
 * (recorded before the start joined its transaction, or by another path) finishes the start
 * (`runtime.start` is idempotent).
 */
export async function startOrder(deps: OrderServiceDeps, cmd: StartOrderCommand, options: StartOrderOptions): Promise<StartOrderOutcome> {
  const orderId = newOrderId();
  // Set by the claim: the order an earlier request with the same key recorded (each try of the transaction sets it afresh).
  const replay: { of: string | null } = { of: null };
  await deps.engine.runtime.startNew(orderId, async (tx) => {
    replay.of = null;
    if (options.idempotency) {
      const claim = await claimIdempotencyKey(tx, options.idempotency, orderId, deps.clock.now());
      if (!claim.claimed) {
        replay.of = claim.orderId;
        return null;
      }
    }
    return recordOrder(tx, deps, orderId, cmd, options);
  });
  if (replay.of === null) return { orderId, replayed: false };
  await deps.engine.runtime.start(replay.of);
  return { orderId: replay.of, replayed: true };
}

/**
 * Records the order (its lines and origin, read with its start context in one statement; its row is written by its
 * first slice) and its documents, answering the row the slice runs on; throws 409 / 400 for a flow or input it
 * cannot start, and nothing it wrote commits.
 */
async function recordOrder(tx: Queryable, deps: OrderServiceDeps, orderId: string, cmd: StartOrderCommand, options: StartOrderOptions): Promise<RecordedOrder> {
  refuseReturnFlow(cmd.flowId);
  const now = deps.clock.now();
  const origin = { startVars: cmd.vars ?? {}, startedBy: options.startedBy };
  // The lines do not depend on the workspace settings (the totals and the rate do): they are written with the read.
  const lines = linesOfInput(cmd.input);
  const linesRecorded = await recordLinesReadingStartContext(tx, { id: orderId, lines, origin }, cmd.flowId, cmd.version, now);
  const { flowVersion, settings } = linesRecorded.context;
  const { facts, stored, documentText } = orderFromInput(cmd.input, settings);
  const recorded = firstSliceOrder(
    { id: orderId, flowId: cmd.flowId, flowVersion, ...facts, input: stored, meta: cmd.input.meta ?? {}, vars: cmd.vars ?? {}, lines, restartedFrom: options.restartedFrom ?? null, origin },
    now,
    linesRecorded,
  );
  if (documentText !== undefined)
    await storeOrderDocument(tx, { orderId, kind: 'inbound', name: 'inbound.txt', contentType: 'text/plain; charset=utf-8', body: documentText }, now);
  if (options.copyDocumentsFrom)
    await tx.query(
      `INSERT INTO order_documents (id, order_id, kind, name, content_type, body, created_at)
       SELECT 'doc_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), $1, kind, name, content_type, body, $3 FROM order_documents WHERE order_id = $2`,
      [orderId, options.copyDocumentsFrom, now],
    );
  return recorded;
}
