// Order events written to the outbox in the same commit as the state change that caused them.
import { createHash } from 'node:crypto';
import type { FiledEvent } from '../order-subject.js';

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

/** How the host files an order event (OrderSubject.fileEvent): under its own order, another one, or not at all (null). */
export type EventFiling = (event: string, data: Record<string, unknown>) => FiledEvent | null;

/**
 * The outbox rows of `events` (id, event, data with the order summary), as the slice write inserts them:
 * each event's data is `{ order: summary, ...its own }`, filed where `file` says. An event filed
 * under another order keeps its id, made from this order's run, so each is a delivery of its own.
 */
export function outboxRows(orderId: string, generation: number, events: OutboxEvent[], order: Record<string, unknown>, file: EventFiling): OutboxRow[] {
  const rows: OutboxRow[] = [];
  for (const e of events) {
    const filed = file(e.event, { order, ...e.data });
    if (!filed) continue;
    rows.push({ id: outboxId(orderId, generation, e), event: e.event, data: filed.data, ...(filed.orderId !== undefined ? { orderId: filed.orderId } : {}) });
  }
  return rows;
}

/** Inserts the rows of `outboxRows` for order `orderSql` at `atSql` (placeholders or literals); shared with the slice write. */
export function outboxInsertSql(orderSql: string, atSql: string, rowsSql: string): string {
  return `INSERT INTO outbox (id, order_id, event, occurred_at, data, created_at)
     SELECT e.id, coalesce(e."orderId", ${orderSql}), e.event, ${atSql}, e.data, ${atSql}
       FROM jsonb_to_recordset(${rowsSql}) AS e(id text, event text, data jsonb, "orderId" text)
     ON CONFLICT (id) DO NOTHING`;
}
