// The order live state served by GET /api/v1/orders/:id and the live connection, plus the order's document links.
import type { Db, Queryable } from '../db/db.js';
import type { Engine } from '../engine/engine-module.js';
import { readLiveState } from './order-live-state.js';
import { notFound } from '../domain/errors.js';

export type OrderLiveState = NonNullable<Awaited<ReturnType<typeof readLiveState>>>;

export interface OrderDocumentLink {
  id: string;
  kind: string;
  name: string;
  contentType: string;
  createdAt: number;
  /** Served to a signed-in person at this path. */
  url: string;
}

export type OrderView = OrderLiveState & { documents: OrderDocumentLink[] };

/**
 * The live state (spec "Order live state") with `documents`; 404 for an unknown order. Its reads (the row with the
 * node records, waits, holds, timeline, lines, retries, returns, documents) share one snapshot: a slice that commits
 * while they run is in all of them or in none, so the timeline never shows a step the records do not.
 */
export async function readOrderView(db: Db, engine: Engine, orderId: string): Promise<OrderView> {
  return db.snapshot((q) => readWith(q, engine, orderId));
}

async function readWith(q: Queryable, engine: Engine, orderId: string): Promise<OrderView> {
  const state = await readLiveState(q, engine.registry, orderId);
  if (!state) throw notFound('Order');
  const { rows } = await q.query<{ id: string; kind: string; name: string; content_type: string; created_at: string }>(
    'SELECT id, kind, name, content_type, created_at FROM order_documents WHERE order_id = $1 ORDER BY created_at, id',
    [orderId],
  );
  const documents = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    contentType: r.content_type,
    createdAt: Number(r.created_at),
    url: `/docs/orders/${encodeURIComponent(orderId)}/${encodeURIComponent(r.id)}`,
  }));
  return { ...state, documents };
}
