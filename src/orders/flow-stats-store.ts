// The flow stats worker's SQL: its cursor, the chunks written since, the orders they belong to (with what was counted of them), and one statement writing a pass.
import type { Queryable } from '../db/db.js';
import type { StoredNodeRecord } from '../engine/runtime/node-record.js';
import type { SeenOrder } from './flow-stats-fold.js';
import { EXACT_SAMPLES, type Buckets } from './flow-stats-histogram.js';

export const CURSOR_NAME = 'timeline';

/** The cursor row, locked for this pass; null when another node's pass holds it (`wait`: block until it is free). */
export async function lockCursor(q: Queryable, wait: boolean): Promise<number | null> {
  const { rows } = await q.query<{ chunk_id: string }>(`SELECT chunk_id FROM flow_stats_cursor WHERE name = $1 FOR UPDATE${wait ? '' : ' SKIP LOCKED'}`, [CURSOR_NAME]);
  return rows[0] ? Number(rows[0].chunk_id) : null;
}

/** The last chunk id handed out (committed or not): nothing above it exists yet. */
export async function lastChunkId(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ last_value: string; is_called: boolean }>(
    "SELECT last_value, is_called FROM order_timeline_chunks_id_seq",
  );
  const row = rows[0];
  return row ? Number(row.last_value) - (row.is_called ? 0 : 1) : 0;
}

/** Chunks (id, order) with ids in (after, upto], and those of `ids`: found through the BRIN index on id. */
export async function chunksSince(q: Queryable, after: number, upto: number, ids: number[]): Promise<{ id: number; orderId: string }[]> {
  const { rows } = await q.query<{ id: string; order_id: string }>(
    `SELECT id, order_id FROM order_timeline_chunks WHERE id > $1 AND id <= $2
     UNION ALL
     SELECT id, order_id FROM order_timeline_chunks WHERE id = ANY($3::bigint[]) AND (id <= $1 OR id > $2)`,
    [after, upto, ids],
  );
  return rows.map((r) => ({ id: Number(r.id), orderId: r.order_id }));
}

/** An order as the worker folds it: its row's state, its entries since the last chunk counted, what was counted. */
export interface OrderToFold {
  id: string;
  flowId: string;
  flowVersion: number;
  status: string;
  generation: number;
  createdAt: number;
  nodes: Record<string, StoredNodeRecord>;
  /** The entries of its chunks after `seen.lastChunk`, oldest first. */
  entries: { at: number; kind: string; message: string; nodeId?: string | null; data?: Record<string, unknown> | null }[];
  /** The newest chunk read (the one counted next time from). */
  lastChunk: number;
  /** What was counted of it, with the flow version it was counted under (a move to another version changes the order's). */
  seen: (SeenOrder & { lastChunk: number; flowVersion: number }) | null;
}

interface OrderFoldRow {
  id: string;
  flow_id: string;
  flow_version: number;
  status: string;
  generation: number;
  created_at: string;
  nodes: Record<string, StoredNodeRecord> | null;
  seen_status: string | null;
  seen_flow_version: number | null;
  seen_generation: number | null;
  seen_nodes: SeenOrder['nodes'] | null;
  seen_last_chunk: string | null;
  chunks: OrderToFold['entries'][] | null;
  last_chunk: string | null;
}

/**
 * The orders of `ids` with their chunks after the last one counted, in ONE statement: its snapshot shows each
 * order's row and chunks as one commit left them (a slice writes both), so records and entries agree.
 */
export async function ordersToFold(q: Queryable, ids: string[]): Promise<OrderToFold[]> {
  const { rows } = await q.query<OrderFoldRow>(
    `SELECT o.id, o.flow_id, o.flow_version, o.status, o.generation, o.created_at, o.nodes,
            s.status AS seen_status, s.flow_version AS seen_flow_version, s.generation AS seen_generation, s.nodes AS seen_nodes, s.last_chunk AS seen_last_chunk,
            c.chunks, c.last_chunk
       FROM unnest($1::text[]) AS t(id)
       JOIN orders o ON o.id = t.id
       LEFT JOIN flow_stats_orders s ON s.order_id = o.id
      CROSS JOIN LATERAL (
            SELECT json_agg(x.entries ORDER BY x.id) AS chunks, max(x.id) AS last_chunk
              FROM order_timeline_chunks x
             WHERE x.order_id = o.id AND x.id > coalesce(s.last_chunk, 0)) c`,
    [ids],
  );
  return rows.map((r) => {
    const seenLast = r.seen_last_chunk === null ? 0 : Number(r.seen_last_chunk);
    return {
      id: r.id,
      flowId: r.flow_id,
      flowVersion: r.flow_version,
      status: r.status,
      generation: r.generation,
      createdAt: Number(r.created_at),
      nodes: r.nodes ?? {},
      entries: (r.chunks ?? []).flat(),
      lastChunk: r.last_chunk === null ? seenLast : Number(r.last_chunk),
      seen:
        r.seen_status === null
          ? null
          : { status: r.seen_status, generation: r.seen_generation ?? 0, nodes: r.seen_nodes ?? {}, lastChunk: seenLast, flowVersion: r.seen_flow_version ?? r.flow_version },
    };
  });
}

/** One node's additions for one hour. */
export interface NodeRow {
  flow_id: string;
  flow_version: number;
  hour: number;
  node_id: string;
  runs: number;
  succeeded: number;
  failed: number;
  max_ms: number | null;
  samples: number[];
  buckets: Buckets;
}

export interface PassWrite {
  orders: { order_id: string; flow_id: string; flow_version: number; hour: number; status: string; generation: number; last_chunk: number; nodes: SeenOrder['nodes'] }[];
  nodes: NodeRow[];
  /** The same additions by day (`hour` holds the day's start). */
  days: NodeRow[];
  edges: { flow_id: string; flow_version: number; hour: number; from_node: string; to_node: string; branch: string; taken: number }[];
  statuses: { flow_id: string; flow_version: number; hour: number; status: string; orders: number }[];
  current: { flow_id: string; flow_version: number; status: string; orders: number }[];
  active: { flow_id: string; flow_version: number; node_id: string; active: number }[];
  cursor: number;
  now: number;
}

/**
 * The upsert that adds a pass's node counts (JSON rows under `param`, their time in the field `hour` whatever the table's column) to `table`, whose
 * time column is `timeColumn`: the hourly and the daily rollups are the same statement on two tables. Exact samples
 * are kept up to EXACT_SAMPLES per row, then dropped for the buckets alone.
 */
function nodeCountsUpsert(table: string, timeColumn: 'hour' | 'day', param: string): string {
  return `INSERT INTO ${table} AS s (flow_id, flow_version, ${timeColumn}, node_id, runs, succeeded, failed, max_ms, samples, buckets)
       SELECT x.flow_id, x.flow_version, x.hour, x.node_id, x.runs, x.succeeded, x.failed, x.max_ms,
              CASE WHEN cardinality(x.samples) > ${EXACT_SAMPLES} THEN NULL ELSE x.samples END, x.buckets
         FROM jsonb_to_recordset(${param}::jsonb) AS x(flow_id text, flow_version int, hour bigint, node_id text, runs bigint, succeeded bigint, failed bigint,
              max_ms bigint, samples bigint[], buckets jsonb)
       ON CONFLICT (flow_id, flow_version, ${timeColumn}, node_id) DO UPDATE SET
         runs = s.runs + EXCLUDED.runs, succeeded = s.succeeded + EXCLUDED.succeeded, failed = s.failed + EXCLUDED.failed,
         max_ms = greatest(s.max_ms, EXCLUDED.max_ms),
         samples = CASE WHEN s.samples IS NULL OR EXCLUDED.samples IS NULL OR cardinality(s.samples) + cardinality(EXCLUDED.samples) > ${EXACT_SAMPLES}
                        THEN NULL ELSE s.samples || EXCLUDED.samples END,
         buckets = flow_stats_add_buckets(s.buckets, EXCLUDED.buckets)`;
}

/**
 * Everything a pass counted, in one statement (each part a data-modifying CTE on its own table), with the cursor:
 * committed together, so a crash before the commit leaves the counts and the cursor as they were.
 */
export async function writePass(q: Queryable, w: PassWrite): Promise<void> {
  await q.query(
    `WITH o AS (
       INSERT INTO flow_stats_orders (order_id, flow_id, flow_version, hour, status, generation, last_chunk, nodes)
       SELECT x.order_id, x.flow_id, x.flow_version, x.hour, x.status, x.generation, x.last_chunk, x.nodes::json
         FROM jsonb_to_recordset($1::jsonb) AS x(order_id text, flow_id text, flow_version int, hour bigint, status text, generation int, last_chunk bigint, nodes jsonb)
       ON CONFLICT (order_id) DO UPDATE SET flow_version = EXCLUDED.flow_version, status = EXCLUDED.status, generation = EXCLUDED.generation, last_chunk = EXCLUDED.last_chunk, nodes = EXCLUDED.nodes
     ), n AS (
       ${nodeCountsUpsert('flow_stats_nodes', 'hour', '$2')}
     ), nd AS (
       ${nodeCountsUpsert('flow_stats_nodes_daily', 'day', '$9')}
     ), e AS (
       INSERT INTO flow_stats_edges AS s (flow_id, flow_version, hour, from_node, to_node, branch, taken)
       SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(flow_id text, flow_version int, hour bigint, from_node text, to_node text, branch text, taken bigint)
       ON CONFLICT (flow_id, flow_version, hour, from_node, to_node, branch) DO UPDATE SET taken = s.taken + EXCLUDED.taken
     ), st AS (
       INSERT INTO flow_stats_statuses AS s (flow_id, flow_version, hour, status, orders)
       SELECT * FROM jsonb_to_recordset($4::jsonb) AS x(flow_id text, flow_version int, hour bigint, status text, orders bigint)
       ON CONFLICT (flow_id, flow_version, hour, status) DO UPDATE SET orders = s.orders + EXCLUDED.orders
     ), cu AS (
       INSERT INTO flow_stats_current AS s (flow_id, flow_version, status, orders)
       SELECT * FROM jsonb_to_recordset($5::jsonb) AS x(flow_id text, flow_version int, status text, orders bigint)
       ON CONFLICT (flow_id, flow_version, status) DO UPDATE SET orders = s.orders + EXCLUDED.orders
     ), a AS (
       INSERT INTO flow_stats_active AS s (flow_id, flow_version, node_id, active)
       SELECT * FROM jsonb_to_recordset($6::jsonb) AS x(flow_id text, flow_version int, node_id text, active bigint)
       ON CONFLICT (flow_id, flow_version, node_id) DO UPDATE SET active = s.active + EXCLUDED.active
     )
     UPDATE flow_stats_cursor SET chunk_id = $7, updated_at = $8 WHERE name = '${CURSOR_NAME}'`,
    [
      JSON.stringify(w.orders),
      JSON.stringify(w.nodes),
      JSON.stringify(w.edges),
      JSON.stringify(w.statuses),
      JSON.stringify(w.current),
      JSON.stringify(w.active),
      w.cursor,
      w.now,
      JSON.stringify(w.days),
    ],
  );
}
