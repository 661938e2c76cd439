// Order events written to the outbox in the same commit as the state change that caused them.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/db.js';

export interface OutboxEvent {
  event: string;
  /** The node that sent it (`cancel` for a cancel); with generation and run it makes the id. */
  nodeId: string;
  run: number;
  data: Record<string, unknown>;
}

/**
 * Event id derived from order, generation, node id, the node's run number and event name
 * (contract section 10): a retry of the same slice writes the same id; a repeated event
 * (a subscription's order.paid each period) gets a new one.
 */
export function outboxId(orderId: string, generation: number, e: Pick<OutboxEvent, 'event' | 'nodeId' | 'run'>): string {
  return createHash('sha256').update(`${orderId}|${generation}|${e.nodeId}|${e.run}|${e.event}`).digest('hex').slice(0, 32);
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
  const rows = events.map((e) => ({
    id: outboxId(orderId, generation, e),
    event: e.event,
    data: { order, ...e.data },
  }));
  await q.query(
    `INSERT INTO outbox (id, order_id, event, occurred_at, data, created_at)
     SELECT e.id, $1, e.event, $2, e.data, $2 FROM jsonb_to_recordset($3::jsonb) AS e(id text, event text, data jsonb)
     ON CONFLICT (id) DO NOTHING`,
    [orderId, now, JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}
