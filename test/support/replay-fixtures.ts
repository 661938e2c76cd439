// Replay fixtures (DESIGN rule 7): persisted snapshots of built-in flow versions, recorded at a wait,
// with the rows of every order table, so that later code must keep rehydrating and continuing them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../src/db/db.js';
import { nodeMapJson } from '../../src/engine/runtime/node-record.js';
import { timelineJson } from '../../src/engine/runtime/timeline.js';
import type { TestService } from './test-service.js';

export const replayDir = fileURLToPath(new URL('../replay/', import.meta.url));

/** What the recorder does to the waiting order, and what it saw afterwards. */
export type ResumeAction =
  | { kind: 'event'; event: string; payload: Record<string, unknown> }
  | { kind: 'approval'; nodeId: string; decision: 'approved' | 'rejected' }
  | { kind: 'advance'; ms: number };

export interface Outcome {
  status: string;
  openWaits: string[];
  nodes: Record<string, string>;
}

export interface ReplayFixture {
  flowId: string;
  version: number;
  compilerVersion: number;
  recordedAt: number;
  graph: unknown;
  orderId: string;
  /** Rows of every table with an `order_id` column, by table. */
  rows: Record<string, Record<string, unknown>[]>;
  resume: ResumeAction[];
  expected: Outcome;
}

/** Tables that belong to one order: every table (not view) with an `order_id` column. */
export async function orderTables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = 'public' AND c.column_name = 'order_id' ORDER BY c.table_name`,
  );
  return rows.map((r) => r.table_name);
}

export async function dumpOrder(db: Db, orderId: string): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  const { rows: orderRows } = await db.query('SELECT * FROM orders WHERE id = $1', [orderId]);
  out.orders = orderRows;
  for (const table of await orderTables(db)) {
    const { rows } = await db.query(`SELECT * FROM ${table} WHERE order_id = $1 ORDER BY 1`, [orderId]);
    if (rows.length) out[table] = rows;
  }
  // Shared rows the order's bookkeeping leans on: stock levels of its SKUs (reservations count in them).
  const { rows: stock } = await db.query(
    'SELECT * FROM stock_levels WHERE sku IN (SELECT sku FROM order_lines WHERE order_id = $1) ORDER BY sku, location_id',
    [orderId],
  );
  if (stock.length) out.stock_levels = stock;
  return out;
}

/** The order's status, open waits and node statuses: what a replay must reproduce. */
export async function outcome(db: Db, orderId: string): Promise<Outcome> {
  const { rows: o } = await db.query('SELECT status FROM orders WHERE id = $1', [orderId]);
  const { rows: w } = await db.query("SELECT node_id FROM order_waits WHERE order_id = $1 AND status = 'open' ORDER BY node_id", [orderId]);
  const { rows: n } = await db.query('SELECT node_id, status FROM order_nodes WHERE order_id = $1 ORDER BY node_id', [orderId]);
  return { status: o[0].status, openWaits: w.map((r) => r.node_id), nodes: Object.fromEntries(n.map((r) => [r.node_id, r.status])) };
}

export async function applyResume(t: TestService, orderId: string, actions: ResumeAction[]): Promise<void> {
  for (const a of actions) {
    const res =
      a.kind === 'event'
        ? await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: a.event, payload: a.payload })
        : a.kind === 'approval'
          ? await t.call('POST', `/api/v1/orders/${orderId}/approvals/${a.nodeId}`, { decision: a.decision })
          : await t.call('POST', '/api/v1/test/clock', { advanceMs: a.ms });
    if (res.status >= 300) throw new Error(`resume ${a.kind} failed: ${res.status} ${res.text}`);
  }
}

/**
 * Loads a fixture into the service's database under a flow id of its own (so it never
 * collides with the currently published built-in), shifting timer due times by the time
 * since recording so waits are not overdue. Returns the order id.
 */
export async function loadFixture(db: Db, recorded: ReplayFixture, now: number): Promise<{ orderId: string; flowId: string }> {
  const f = { ...recorded, rows: foldedLayout(recorded.rows) };
  const flowId = `replay-${f.flowId}-v${f.version}`;
  const shift = now - f.recordedAt;
  await db.tx(async (tx) => {
    // Rows go in table by table; foreign keys between order tables are checked by the data itself.
    await tx.query("SET LOCAL session_replication_role = 'replica'");
    await tx.query(
      `INSERT INTO flows (id, name, channels, draft_graph, draft_updated_at, published_version, created_at, updated_at)
       VALUES ($1, $1, '[]', $2, $3, 1, $3, $3) ON CONFLICT (id) DO NOTHING`,
      [flowId, JSON.stringify(f.graph), now],
    );
    await tx.query(
      `INSERT INTO flow_versions (flow_id, version, name, graph, created_by, created_at) VALUES ($1, 1, $1, $2, 'replay', $3)
       ON CONFLICT DO NOTHING`,
      [flowId, JSON.stringify(f.graph), now],
    );
    const tables = ['orders', ...Object.keys(f.rows).filter((t) => t !== 'orders')];
    for (const table of tables) {
      const { rows: columns } = await tx.query<{ column_name: string; data_type: string; serial: boolean }>(
        `SELECT column_name, data_type, coalesce(column_default LIKE 'nextval%', false) AS serial
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [table],
      );
      const typeOf = new Map(columns.map((x) => [x.column_name, x.data_type]));
      // Serial ids are not carried over (they would collide with other orders' rows); dump order keeps their order.
      const serial = new Set(columns.filter((c) => c.serial).map((c) => c.column_name));
      for (const row of f.rows[table] ?? []) {
        const r: Record<string, unknown> = Object.fromEntries(Object.entries(row).filter(([c]) => !serial.has(c)));
        if (table === 'orders') {
          r.flow_id = flowId;
          r.flow_version = 1;
        }
        if (table === 'timers' && r.due_at !== null) r.due_at = Number(r.due_at) + shift;
        if (table === 'order_waits' && r.deadline !== null) r.deadline = Number(r.deadline) + shift;
        const cols = Object.keys(r);
        const values = cols.map((c) => (typeOf.get(c) === 'jsonb' || typeOf.get(c) === 'json' ? JSON.stringify(r[c]) : r[c]));
        // Stock levels exist already (workspace): take the recorded counts.
        const upsert = table === 'stock_levels' ? ' ON CONFLICT (sku, location_id) DO UPDATE SET on_hand = EXCLUDED.on_hand, reserved = EXCLUDED.reserved' : '';
        await tx.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})${upsert}`, values);
      }
    }
  });
  return { orderId: f.orderId, flowId };
}

/**
 * Rows recorded before migrations 0018-0019 (one `order_nodes` row per node, one `order_timeline` row
 * per entry) in today's layout, as those migrations moved stored orders: the records as the orders
 * row's `nodes` map, the entries as one timeline chunk.
 */
function foldedLayout(rows: ReplayFixture['rows']): ReplayFixture['rows'] {
  const { order_nodes: nodes, order_timeline: timeline, ...rest } = rows;
  const out: ReplayFixture['rows'] = { ...rest, orders: rest.orders.map((o) => ({ ...o })) };
  if (nodes) {
    out.orders[0].nodes = nodeMapJson(
      nodes.map((n: any) => ({
        nodeId: n.node_id, status: n.status, runs: n.runs, attempt: n.attempt, summary: n.summary, output: n.output, error: n.error,
        branches: n.branches, doneSeq: n.done_seq, startedAt: n.started_at === null ? null : Number(n.started_at), endedAt: n.ended_at === null ? null : Number(n.ended_at),
        holds: 0,
      })),
    );
  }
  if (timeline) {
    const entries = [...timeline].sort((a: any, b: any) => Number(a.id) - Number(b.id));
    out.order_timeline_chunks = [
      { order_id: entries[0].order_id, entries: timelineJson(entries.map((e: any) => ({ at: Number(e.at), kind: e.kind, message: e.message, nodeId: e.node_id, data: e.data }))) },
    ];
  }
  return out;
}

export function listFixtures(): ReplayFixture[] {
  return readdirSync(replayDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(replayDir, f), 'utf8')) as ReplayFixture);
}
