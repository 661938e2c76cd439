// Starting a return (contract 18): the checks against the order it returns from, then a run of tpl-return recorded and started in one transaction.
import type { Queryable } from '../db/db.js';
import { DomainError, notFound, ValidationError } from '../domain/errors.js';
import { planReturn, type ReturnPart, type ReturnRequestLine } from '../domain/return-math.js';
import { returnRefusal } from '../domain/return-window.js';
import { fromMinor } from '../domain/money.js';
import { toOrderRow, type OrderDbRow, type OrderRow } from './order-row.js';
import { toNodeRecords, type StoredNodeRecord } from '../engine/runtime/node-record.js';
import { claimIdempotencyKey, type IdempotencyClaim } from './idempotency.js';
import { insertOrder, newOrderId, type RecordedOrder } from './new-order.js';
import { readStartContext } from './start-context.js';
import { coveredUnits, payoutState, readReturnFacts, shippedFrom } from './return-ledger.js';
import type { OrderServiceDeps } from './start-order.js';
import { RETURN_FLOW_ID } from './return-flow.js';

/** What a return asks for (the validated POST /api/v1/orders/:id/returns body and the order's id). */
export interface StartReturnCommand {
  orderId: string;
  lines: ReturnRequestLine[];
  reason?: string;
}

export interface StartReturnOutcome {
  returnId: string;
  orderId: string;
  /** True when the idempotency key named a return started earlier. */
  replayed: boolean;
}

/**
 * Records a return of `cmd.orderId` and runs its first slice in one transaction (`runtime.startNew`),
 * as a start does: with an idempotency claim the key is taken first (a racing request with the same
 * key waits, then replays this return). The parent's row is locked for the checks, so a return and
 * the parent's payout (or another return) never both see the other as not there yet.
 */
export async function startReturn(deps: OrderServiceDeps, cmd: StartReturnCommand, options: { startedBy: string; idempotency?: IdempotencyClaim | null }): Promise<StartReturnOutcome> {
  const returnId = newOrderId();
  const replay: { of: string | null } = { of: null };
  await deps.engine.runtime.startNew(returnId, async (tx) => {
    replay.of = null;
    if (options.idempotency) {
      const claim = await claimIdempotencyKey(tx, options.idempotency, returnId, deps.clock.now());
      if (!claim.claimed) {
        replay.of = claim.orderId;
        return null;
      }
    }
    return recordReturn(tx, deps, returnId, cmd, options.startedBy);
  });
  if (replay.of === null) return { returnId, orderId: cmd.orderId, replayed: false };
  await deps.engine.runtime.start(replay.of);
  return { returnId: replay.of, orderId: cmd.orderId, replayed: true };
}

/** Locks the parent, checks the return against it (409 / 400 before writing anything), writes the return's order row and its record. */
async function recordReturn(
  tx: Queryable,
  deps: OrderServiceDeps,
  returnId: string,
  cmd: StartReturnCommand,
  startedBy: string,
): Promise<RecordedOrder> {
  const { rows } = await tx.query<OrderDbRow & { nodes: Record<string, StoredNodeRecord> | null }>('SELECT * FROM orders WHERE id = $1 FOR UPDATE', [cmd.orderId]);
  if (!rows[0]) throw notFound('Order');
  const parent = toOrderRow(rows[0]);
  const now = deps.clock.now();
  const facts = await readReturnFacts(tx, parent.id);
  const { compiled } = await deps.engine.registry.load(tx, parent.flowId, parent.flowVersion);
  const refusal = returnRefusal({
    orderId: parent.id,
    status: parent.status,
    isReturn: parent.returnOf !== null,
    capturedAt: facts.capturedAt,
    ...payoutState(compiled, toNodeRecords(rows[0].nodes)),
    windowDays: facts.windowDays,
    now,
  });
  if (refusal) throw new DomainError(refusal.code, refusal.message, 'conflict');
  const plan = planReturn(facts.lines, coveredUnits(facts.returns), cmd.lines, parent.total);
  if ('issues' in plan) throw new ValidationError(plan.issues, 'Invalid return lines');
  const { flowVersion } = await readStartContext(tx, RETURN_FLOW_ID);
  const from = await shippedFrom(tx, parent.id);
  const recorded = await insertOrder(tx, returnOrder(parent, returnId, flowVersion, plan, from, cmd.reason ?? null, startedBy), now);
  await tx.query('INSERT INTO order_returns (return_id, order_id, lines, amount_minor, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    returnId,
    parent.id,
    JSON.stringify(plan.parts.map((p) => ({ lineNo: p.lineNo, sku: p.sku, sellerId: p.sellerId, qty: p.qty, amountMinor: p.amountMinor }))),
    plan.amountMinor,
    cmd.reason ?? null,
    now,
  ]);
  return recorded;
}

/**
 * The return's order row: the parent's model, channel, currency, rate, customer and meta (its
 * `simulate` switches apply to the return's steps too), no externalId, the returned units as its
 * lines (each at the location its units left from), its total the refund, and `vars.return` for
 * the flow (`amount` in the order currency is what `commerce.refund` reads).
 */
function returnOrder(parent: OrderRow, returnId: string, flowVersion: number, plan: { parts: ReturnPart[]; amountMinor: number }, from: ReadonlyMap<number, string>, reason: string | null, startedBy: string) {
  const c = parent.currency;
  const goods = plan.parts.reduce((n, p) => n + p.unitPriceMinor * p.qty, 0);
  const subtotal = Math.min(goods, plan.amountMinor);
  const lines = plan.parts.map((p) => ({ sku: p.sku, qty: p.qty, sellerId: p.sellerId, lineNo: p.lineNo, amount: fromMinor(p.amountMinor, c) }));
  const vars = { return: { of: parent.id, amount: fromMinor(plan.amountMinor, c), currency: c, lines, reason } };
  const fulfillment = parent.input.fulfillment;
  return {
    id: returnId,
    flowId: RETURN_FLOW_ID,
    flowVersion,
    model: parent.model,
    channel: parent.channel,
    externalId: null,
    title: `Return of ${parent.title ?? parent.id}`,
    customerId: parent.customerId,
    contactEmail: parent.contactEmail,
    currency: c,
    fxRate: parent.fxRate,
    subtotal,
    tax: plan.amountMinor - subtotal,
    total: plan.amountMinor,
    input: {
      returnOf: parent.id,
      model: parent.model,
      channel: parent.channel,
      currency: c,
      lines: plan.parts.map((p) => ({ sku: p.sku, qty: p.qty, sellerId: p.sellerId })),
      ...(reason ? { reason } : {}),
      ...(fulfillment !== undefined ? { fulfillment } : {}),
    },
    meta: parent.meta,
    vars,
    lines: plan.parts.map((p) => ({ sku: p.sku, name: p.name, qty: p.qty, unitPriceMinor: p.unitPriceMinor, sellerId: p.sellerId, locationId: from.get(p.lineNo) ?? null })),
    returnOf: parent.id,
    origin: { startVars: vars, startedBy },
  };
}
