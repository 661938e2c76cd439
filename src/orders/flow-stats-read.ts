// The stats answer of contract section 17, read from the worker's aggregates only (no order, timeline or wait row is read).
import type { Queryable } from '../db/db.js';
import { ORDER_STATUSES } from './order-schemas.js';
import { bucketPercentiles, exactPercentiles, EXACT_SAMPLES, type Buckets, type Percentiles } from './flow-stats-histogram.js';

export interface FlowStatsRange {
  flowId: string;
  version: number;
  /** Hours of order creation, both rounded down to the hour: hours starting at `fromHour` through `toHour`. */
  fromHour: number;
  toHour: number;
}

/** What the answer lists: every node and edge of the version, counted or not. */
export interface FlowStatsShape {
  nodes: readonly string[];
  edges: readonly { from: string; to: string; branch: string }[];
}

export interface FlowStatsNode {
  runs: number;
  succeeded: number;
  failed: number;
  activeNow: number;
  durationMs: Percentiles;
}

export interface FlowStats {
  flowId: string;
  version: number;
  from: number;
  to: number;
  orders: Record<string, number>;
  nodes: Record<string, FlowStatsNode>;
  edges: { from: string; to: string; branch: string; count: number }[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A node's rows over the range, `cols` of each: whole days ($5 first, up to $6) from the daily table, the hours at the
 * range's ends from the hourly one (both through their primary keys).
 */
const nodeRows = (cols: string): string =>
  `(SELECT ${cols} FROM flow_stats_nodes WHERE flow_id = $1 AND flow_version = $2 AND hour >= $3 AND hour <= $4 AND NOT (hour >= $5 AND hour < $6)
    UNION ALL
    SELECT ${cols} FROM flow_stats_nodes_daily WHERE flow_id = $1 AND flow_version = $2 AND day >= $5 AND day < $6)`;

/**
 * The statements of an answer ($1 flow, $2 version, $3 first hour, $4 last hour; `nodes` also $5 and $6, the whole days
 * inside the range; `active` $1 and $2 only): each reads aggregate tables through their primary keys, never an order.
 * `nodes` sums a node's rows and hands back the durations themselves while the range holds at most 10,000 finished
 * runs (exact percentiles; the arrays are read only then), else the sum of its log buckets.
 */
export const FLOW_STATS_SQL = {
  nodes: `WITH t AS (
            SELECT node_id, sum(runs)::bigint AS runs, sum(succeeded)::bigint AS succeeded, sum(failed)::bigint AS failed, max(max_ms) AS max_ms,
                   bool_and(samples IS NOT NULL) AND sum(succeeded + failed) <= ${EXACT_SAMPLES} AS exact
              FROM ${nodeRows('node_id, runs, succeeded, failed, max_ms, samples')} AS r
             GROUP BY node_id)
        SELECT t.node_id, t.runs, t.succeeded, t.failed, t.max_ms, t.exact,
               CASE WHEN t.exact THEN (
                 SELECT coalesce(array_agg(d), '{}') FROM ${nodeRows('node_id, samples')} AS r, unnest(r.samples) AS d WHERE r.node_id = t.node_id) END AS samples,
               CASE WHEN NOT t.exact THEN (
                 SELECT coalesce(jsonb_object_agg(k, n), '{}'::jsonb)
                   FROM (SELECT b.key AS k, sum(b.value::bigint) AS n FROM ${nodeRows('node_id, buckets')} AS r, jsonb_each_text(r.buckets) AS b
                          WHERE r.node_id = t.node_id GROUP BY b.key) x) END AS buckets
          FROM t`,
  edges: `SELECT from_node, to_node, branch, sum(taken)::bigint AS taken FROM flow_stats_edges
           WHERE flow_id = $1 AND flow_version = $2 AND hour >= $3 AND hour <= $4 GROUP BY from_node, to_node, branch`,
  statuses: `SELECT status, sum(orders)::bigint AS orders FROM flow_stats_statuses
              WHERE flow_id = $1 AND flow_version = $2 AND hour >= $3 AND hour <= $4 GROUP BY status`,
  /** Now, whatever the range. */
  active: `SELECT node_id, active FROM flow_stats_active WHERE flow_id = $1 AND flow_version = $2`,
} as const;

/** The parameters of each statement for a range: the whole days inside it are [$5, $6) (none: 0, 0). */
export function flowStatsParams(range: FlowStatsRange): Record<keyof typeof FLOW_STATS_SQL, unknown[]> {
  const firstDay = Math.ceil(range.fromHour / DAY) * DAY;
  const endDays = Math.floor((range.toHour + HOUR) / DAY) * DAY;
  const [dayFrom, dayTo] = endDays > firstDay ? [firstDay, endDays] : [0, 0];
  const hours = [range.flowId, range.version, range.fromHour, range.toHour];
  return { nodes: [...hours, dayFrom, dayTo], edges: hours, statuses: hours, active: hours.slice(0, 2) };
}

interface NodeStatsRow {
  node_id: string;
  runs: string;
  succeeded: string;
  failed: string;
  max_ms: string | null;
  exact: boolean;
  samples: string[] | null;
  buckets: Buckets | null;
}

/** The answer for a version over a range of creation hours. */
export async function readFlowStats(q: Queryable, range: FlowStatsRange, shape: FlowStatsShape): Promise<FlowStats> {
  const params = flowStatsParams(range);
  const [nodeStats, edgeRows, statusRows, activeRows] = await Promise.all([
    q.query<NodeStatsRow>(FLOW_STATS_SQL.nodes, params.nodes),
    q.query<{ from_node: string; to_node: string; branch: string; taken: string }>(FLOW_STATS_SQL.edges, params.edges),
    q.query<{ status: string; orders: string }>(FLOW_STATS_SQL.statuses, params.statuses),
    q.query<{ node_id: string; active: string }>(FLOW_STATS_SQL.active, params.active),
  ]);
  const byNode = new Map(nodeStats.rows.map((r) => [r.node_id, r]));
  const active = new Map(activeRows.rows.map((r) => [r.node_id, Math.max(0, Number(r.active))]));
  const nodes: Record<string, FlowStatsNode> = {};
  for (const id of shape.nodes) {
    const r = byNode.get(id);
    const max = r?.max_ms === null || r?.max_ms === undefined ? null : Number(r.max_ms);
    const durationMs = !r ? { p50: null, p95: null, max: null } : r.exact ? exactPercentiles((r.samples ?? []).map(Number)) : bucketPercentiles(r.buckets ?? {}, max);
    nodes[id] = {
      runs: r ? Number(r.runs) : 0,
      succeeded: r ? Number(r.succeeded) : 0,
      failed: r ? Number(r.failed) : 0,
      activeNow: active.get(id) ?? 0,
      durationMs,
    };
  }
  const taken = new Map(edgeRows.rows.map((r) => [`${r.from_node}\u0000${r.to_node}\u0000${r.branch}`, Number(r.taken)]));
  const orders: Record<string, number> = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0]));
  for (const r of statusRows.rows) if (r.status in orders) orders[r.status] = Math.max(0, Number(r.orders));
  return {
    flowId: range.flowId,
    version: range.version,
    from: range.fromHour,
    to: range.toHour,
    orders,
    nodes,
    edges: shape.edges.map((e) => ({ from: e.from, to: e.to, branch: e.branch, count: taken.get(`${e.from}\u0000${e.to}\u0000${e.branch}`) ?? 0 })),
  };
}

/** Orders of each flow running or waiting now (all versions), as the worker last counted them: the flows list and the gauge. */
export async function activeOrdersByFlow(q: Queryable): Promise<Map<string, { running: number; waiting: number }>> {
  const { rows } = await q.query<{ flow_id: string; running: string; waiting: string }>(
    `SELECT flow_id, coalesce(sum(orders) FILTER (WHERE status IN ('queued', 'running')), 0) AS running,
            coalesce(sum(orders) FILTER (WHERE status = 'waiting'), 0) AS waiting
       FROM flow_stats_current GROUP BY flow_id`,
  );
  return new Map(rows.map((r) => [r.flow_id, { running: Math.max(0, Number(r.running)), waiting: Math.max(0, Number(r.waiting)) }]));
}
