// Order events written to the outbox in the same commit as the state change that caused them.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/db.js';

export interface OutboxEvent {
  event: string;
  /** The node that sent it (`cancel` for a cancel); with generation and run it makes the id. */
  nodeId: string;
  run: number;
  /** Which occurrence within the node's run, for an event a run may send more than once (order.held: the hold's number). */
  occurrence?: number;
  data: Record<string, unknown>;
}

/**
 * Event id derived from order, generation, node id, the node's run number and event name
 * (contract section 10), and the occurrence when the event has one: a retry of the same slice
 * writes the same id; a repeated event (a subscription's order.paid each period, a second hold of
 * the same step) gets a new one.
 */
export function outboxId(orderId: string, generation: number, e: Pick<OutboxEvent, 'event' | 'nodeId' | 'run' | 'occurrence'>): string {
  const occurrence = e.occurrence === undefined ? '' : `|${e.occurrence}`;
  return createHash('sha256').update(`${orderId}|${generation}|${e.nodeId}|${e.run}|${e.event}${occurrence}`).digest('hex').slice(0, 32);
}

/** An outbox row as the slice writes it; `orderId` only when the event belongs to another order than the slice's. */
export interface OutboxRow {
  id: string;
  event: string;
  data: Record<string, unknown>;
  orderId?: string;
}

/** The one event a return sends (contract 18): its refund, as its parent's. */
const RETURN_EVENTS: ReadonlySet<string> = new Set(['order.refunded']);

/**
 * The outbox rows of `events` (id, event, data with the order summary), as writeOutbox inserts them.
 * A return's run (its summary names `returnOf`) sends no event of its own: only `order.refunded`,
 * which belongs to the parent (`orderId` = the parent, `data.returnId` = the return; the step may
 * put the parent's summary in `data.order`). Its id is still made from the return's own run, so
 * each return's refund is a delivery of its own.
 */
export function outboxRows(orderId: string, generation: number, events: OutboxEvent[], order: Record<string, unknown>): OutboxRow[] {
  const parent = typeof order.returnOf === 'string' ? order.returnOf : null;
  if (parent === null) return events.map((e) => ({ id: outboxId(orderId, generation, e), event: e.event, data: { order, ...e.data } }));
  return events
    .filter((e) => RETURN_EVENTS.has(e.event))
    .map((e) => ({ id: outboxId(orderId, generation, e), event: e.event, orderId: parent, data: { order, ...e.data, returnId: orderId } }));
}

/** Inserts the rows of `outboxRows` for order `orderSql` at `atSql` (placeholders or literals); shared with the slice write. */
export function outboxInsertSql(orderSql: string, atSql: string, rowsSql: string): string {
  return `INSERT INTO outbox (id, order_id, event, occurred_at, data, created_at)
     SELECT e.id, coalesce(e."orderId", ${orderSql}), e.event, ${atSql}, e.data, ${atSql}
       FROM jsonb_to_recordset(${rowsSql}) AS e(id text, event text, data jsonb, "orderId" text)
     ON CONFLICT (id) DO NOTHING`;
}

export async function writeOutbox(
  q: Queryable,
  orderId: string,
  generation: number,
  events: OutboxEvent[],
  order: Record<string, unknown>,
  now: number,
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = outboxRows(orderId, generation, events, order);
  await q.query(outboxInsertSql('$1', '$2', '$3::jsonb'), [orderId, now, JSON.stringify(rows)]);
  return rows.map((r) => r.id);
}
