// Starting an order: the idempotency claim, validation against the workspace, the order row, its documents,
// then the first run slice (spec "Start an order").
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Engine } from '../engine/engine-module.js';
import { insertOrder, newOrderId, type RecordedOrder } from './new-order.js';
import { orderFromInput } from './order-from-input.js';
import type { OrderInput } from '../domain/order-input-schema.js';
import { claimIdempotencyKey, type IdempotencyClaim } from './idempotency.js';
import { readStartContext } from './start-context.js';
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

/** Writes the order row and everything that belongs to it, answering the row (and the reference version); throws 409 / 400 before writing anything. */
async function recordOrder(tx: Queryable, deps: OrderServiceDeps, orderId: string, cmd: StartOrderCommand, options: StartOrderOptions): Promise<RecordedOrder> {
  refuseReturnFlow(cmd.flowId);
  const { flowVersion, settings } = await readStartContext(tx, cmd.flowId, cmd.version);
  const { facts, lines, stored, documentText } = orderFromInput(cmd.input, settings);
  const now = deps.clock.now();
  const recorded = await insertOrder(
    tx,
    {
      id: orderId,
      flowId: cmd.flowId,
      flowVersion,
      ...facts,
      input: stored,
      meta: cmd.input.meta ?? {},
      vars: cmd.vars ?? {},
      lines,
      restartedFrom: options.restartedFrom ?? null,
      origin: { startVars: cmd.vars ?? {}, startedBy: options.startedBy },
    },
    now,
    // The row is written once, by the first slice (which this transaction runs next), with that slice's outcome.
    'first slice',
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
