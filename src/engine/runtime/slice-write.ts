// The slice's writes as one statement: data-modifying CTEs for the engine's tables, then the orders row (with its node records).
//
// Everything a run slice changes in the engine's own tables (node records, waits, holds, timers,
// timeline, outbox, the orders row) is collected in memory while the slice runs and written
// here, after the steps, in one round trip. The sub-statements touch different rows (never
// one row twice) and read nothing the others write, which is what data-modifying WITH
// requires; each runs to completion whether or not the main statement reads it.
import { createHash } from 'node:crypto';
import type { NewTimer } from '../scheduler/timer-store.js';
import { nodeMapJson, type NodeRecord } from './node-record.js';
import { outboxInsertSql, type OutboxRow } from './outbox.js';
import { timelineInsertSql, timelineJson, type TimelineEntry } from './timeline.js';
import type { WaitRow } from './waits.js';
import { callInsertSql, callsJson, type NewCall } from './order-calls.js';
import { holdCloseSql, holdClosesJson, holdInsertSql, holdsJson, type HoldClose, type HoldRow } from './holds.js';

/** An open wait the slice closed (it was open before the slice). */
export interface WaitClose {
  nodeId: string;
  run: number;
  generation: number;
  status: string;
  closedAt: number;
  decidedBy: string | null;
  note: string | null;
}

/** The orders row as the slice leaves it. */
export interface OrderWrite {
  status: string;
  reason: string | null;
  snapshot: unknown;
  compilerVersion: number;
  vars: Record<string, unknown>;
  rollback: unknown;
  waitingOn: string[];
  waitingAt: string[];
  waitingSince: number | null;
  stepSeq: number;
  instanceId: string;
  generation: number;
  /** The host's columns (name -> value) of the order facts the slice's steps changed through their ports (OrderSubject.columns). */
  columns: Readonly<Record<string, unknown>>;
}

export interface SliceWrite {
  orderId: string;
  /** A new order's row not written yet (its columns as JSON): inserted with the slice's outcome instead of updated. */
  newRow?: string | null;
  now: number;
  /** Every node record of the run when the slice changed any (the `orders.nodes` map is written whole), else null. */
  nodes: NodeRecord[] | null;
  /** Waits opened in this slice (closed ones carry their final status). */
  newWaits: WaitRow[];
  closedWaits: WaitClose[];
  /** Holds opened in this slice (closed ones carry their final status), and holds open before it that it closed. */
  newHolds: HoldRow[];
  closedHolds: HoldClose[];
  timers: NewTimer[];
  /** Pending timers cancelled by id, each at its time. */
  cancelTimers: { id: string; at: number }[];
  /** Every pending timer of the order cancelled at this time (the run ended or was cancelled). */
  cancelAllTimersAt: number | null;
  timeline: TimelineEntry[];
  /** External calls recorded by the slice. */
  calls: NewCall[];
  outbox: OutboxRow[];
  order: OrderWrite;
}

/** Collects parameter values and hands out their placeholders. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }
  /** As `json`, for a `json` column (stored as the text is written). */
  jsonText(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::json`;
  }
}

function waitInsertSql(p: Params, order: string, waits: WaitRow[]): string {
  const rows = waits.map((w) => ({
    node_id: w.nodeId,
    run: w.run,
    generation: w.generation,
    kind: w.kind,
    title: w.title,
    event: w.event,
    assignee: w.assignee,
    amount_minor: w.amountMinor,
    deadline: w.deadline,
    since: w.since,
    status: w.status,
    decided_by: w.decidedBy,
    note: w.note,
    closed_at: w.closedAt,
    timer_id: w.timerId,
  }));
  return `INSERT INTO order_waits (order_id, node_id, run, generation, kind, title, event, assignee, amount_minor, deadline, since, status, decided_by, note, closed_at, timer_id)
     SELECT ${order}, w.node_id, w.run, w.generation, w.kind, w.title, w.event, w.assignee, w.amount_minor, w.deadline, w.since, w.status,
            w.decided_by, w.note, w.closed_at, w.timer_id
       FROM jsonb_to_recordset(${p.json(rows)}) AS w(node_id text, run int, generation int, kind text, title text, event text, assignee text,
            amount_minor bigint, deadline bigint, since bigint, status text, decided_by text, note text, closed_at bigint, timer_id text)`;
}

function waitCloseSql(p: Params, order: string, closes: WaitClose[]): string {
  const rows = closes.map((c) => ({ node_id: c.nodeId, run: c.run, generation: c.generation, status: c.status, closed_at: c.closedAt, decided_by: c.decidedBy, note: c.note }));
  return `UPDATE order_waits w SET status = c.status, closed_at = c.closed_at, decided_by = c.decided_by, note = c.note
       FROM jsonb_to_recordset(${p.json(rows)}) AS c(node_id text, run int, generation int, status text, closed_at bigint, decided_by text, note text)
      WHERE w.order_id = ${order} AND w.node_id = c.node_id AND w.run = c.run AND w.generation = c.generation AND w.status = 'open'`;
}

/** Like timer-store `schedule` for each timer (ON CONFLICT DO NOTHING keeps scheduling idempotent). */
function timerInsertSql(p: Params, timers: NewTimer[], now: number): string {
  const rows = timers.map((t) => ({
    id: t.id,
    order_id: t.orderId ?? null,
    kind: t.kind,
    node_id: t.nodeId ?? null,
    run: t.run ?? null,
    due_at: t.dueAt,
    payload: t.payload === undefined ? null : t.payload,
  }));
  return `INSERT INTO timers (id, order_id, kind, node_id, run, due_at, payload, created_at)
     SELECT t.id, t.order_id, t.kind, t.node_id, t.run, t.due_at, t.payload, ${p.add(now)}::bigint
       FROM jsonb_to_recordset(${p.json(rows)}) AS t(id text, order_id text, kind text, node_id text, run int, due_at bigint, payload jsonb)
     ON CONFLICT (id) DO NOTHING`;
}

/**
 * Both kinds of cancel (by id, and every pending timer of the order) in one UPDATE, so no
 * timer row is updated twice in the statement; each keeps the time it was cancelled at. The
 * rows are found through the primary key and the order_id index (an OR would scan all pending).
 */
function timerCancelSql(p: Params, order: string, byId: { id: string; at: number }[], allAt: number | null): string {
  const at = `(SELECT c.at FROM jsonb_to_recordset(${p.json(byId)}) AS c(id text, at bigint) WHERE c.id = timers.id)`;
  const all = allAt === null ? 'NULL' : `${p.add(allAt)}::bigint`;
  const ids = [`SELECT unnest(${p.add(byId.map((c) => c.id))}::text[])`, allAt === null ? null : `SELECT id FROM timers WHERE order_id = ${order}`]
    .filter(Boolean)
    .join(' UNION ');
  return `UPDATE timers SET cancelled_at = coalesce(${at}, ${all}) WHERE id IN (${ids}) AND fired_at IS NULL AND cancelled_at IS NULL`;
}

/** A column name the host hands in: a plain SQL identifier, so it can be written into the statement as it is. */
const COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;

/** The host's column names of the changed facts, checked. */
function checkedColumns(o: OrderWrite): [string, unknown][] {
  const entries = Object.entries(o.columns);
  for (const [column] of entries) if (!COLUMN_NAME.test(column)) throw new Error(`not a column name: ${column}`);
  return entries;
}

/**
 * A new order's row, inserted once with the slice's outcome: its columns as the host recorded them (`newRow`), the
 * run's fields and the changed facts laid over them (populated twice: a key the recorded row leaves out is NULL, and
 * a JSON null sets its column NULL, json and jsonb columns included).
 */
function orderInsertSql(p: Params, newRow: string, o: OrderWrite, nodes: NodeRecord[] | null, now: number): string {
  const run: Record<string, unknown> = {
    ...Object.fromEntries(checkedColumns(o)),
    ...(nodes ? { nodes: nodeMapJson(nodes) } : {}),
    status: o.status, reason: o.reason, snapshot: o.snapshot, compiler_version: o.compilerVersion, vars: o.vars, rollback: o.rollback,
    waiting_on: o.waitingOn, waiting_at: o.waitingAt, waiting_since: o.waitingSince, step_seq: o.stepSeq, instance_id: o.instanceId,
    generation: o.generation, started: true, updated_at: now,
  };
  // The outer one reads json, not jsonb: a json column (the node map) keeps its text as written, keys in their order.
  // In FROM, so each runs once (`SELECT (f(…)).*` would call it once per column).
  return `INSERT INTO orders SELECT r.* FROM json_populate_record(jsonb_populate_record(NULL::orders, ${p.add(newRow)}::jsonb), ${p.jsonText(run)}) AS r`;
}

function orderUpdateSql(p: Params, order: string, o: OrderWrite, nodes: NodeRecord[] | null, now: number): string {
  const json = (v: unknown) => (v === null || v === undefined ? 'NULL' : p.json(v));
  const nodesSet = nodes ? `nodes = ${p.jsonText(nodeMapJson(nodes))}, ` : '';
  const factsSet = checkedColumns(o)
    .map(([column, value]) => `${column} = ${p.add(value)}, `)
    .join('');
  return `UPDATE orders SET ${nodesSet}status = ${p.add(o.status)}, reason = ${p.add(o.reason)}, snapshot = ${json(o.snapshot)},
       compiler_version = ${p.add(o.compilerVersion)}, vars = ${p.json(o.vars)}, rollback = ${json(o.rollback)},
       waiting_on = ${p.add(o.waitingOn)}::text[], waiting_at = ${p.add(o.waitingAt)}::text[], waiting_since = ${p.add(o.waitingSince)}::bigint,
       step_seq = ${p.add(o.stepSeq)}, ${factsSet}instance_id = ${p.add(o.instanceId)}, generation = ${p.add(o.generation)},
       started = true, updated_at = ${p.add(now)}
     WHERE id = ${order}`;
}

/** Statement names by text: one per combination of parts, so a handful per process. */
const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `oo_slice_write_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The statement that writes `w`: `WITH w0 AS (…), w1 AS (…) UPDATE orders …`, with its
 * parameters, named so each pool connection parses and plans each shape once (it returns no
 * rows, so a later column added to these tables cannot invalidate its result type).
 */
export function sliceWriteStatement(w: SliceWrite): { name: string; text: string; values: unknown[] } {
  const p = new Params();
  const order = p.add(w.orderId);
  const parts: string[] = [];
  // The outbox insert first: it is the part that can wait on another transaction (the same event
  // id), and pg_stat_activity shows only the start of a long statement.
  if (w.outbox.length) parts.push(outboxInsertSql(order, `${p.add(w.now)}::bigint`, p.json(w.outbox)));
  if (w.newWaits.length) parts.push(waitInsertSql(p, order, w.newWaits));
  if (w.closedWaits.length) parts.push(waitCloseSql(p, order, w.closedWaits));
  if (w.newHolds.length) parts.push(holdInsertSql(order, p.json(holdsJson(w.newHolds))));
  if (w.closedHolds.length) parts.push(holdCloseSql(order, p.json(holdClosesJson(w.closedHolds))));
  if (w.timers.length) parts.push(timerInsertSql(p, w.timers, w.now));
  if (w.cancelTimers.length || w.cancelAllTimersAt !== null) parts.push(timerCancelSql(p, order, w.cancelTimers, w.cancelAllTimersAt));
  if (w.timeline.length) parts.push(timelineInsertSql(order, p.jsonText(timelineJson(w.timeline))));
  if (w.calls.length) parts.push(callInsertSql(order, p.json(callsJson(w.calls)), `${p.add(w.now)}::bigint`));
  const ctes = parts.length ? `WITH ${parts.map((part, i) => `w${i} AS (${part})`).join(',\n')}\n` : '';
  const row = w.newRow ? orderInsertSql(p, w.newRow, w.order, w.nodes, w.now) : orderUpdateSql(p, order, w.order, w.nodes, w.now);
  const text = `${ctes}${row}`;
  return { name: statementName(text), text, values: p.values };
}
