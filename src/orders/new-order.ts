// Records a new order (lines, where it came from, and its row now or with its first slice) in one statement; its first run slice follows in the same transaction.
import { newOrderLinesRead } from '../commerce/order-lines-repo.js';
import type { CachedRead } from '../db/transaction-read-cache.js';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { COMPILER_VERSION } from '../engine/compiler.js';
import type { OrderDbRow } from './order-row.js';
import type { CommerceOrderFacts } from '../commerce/commerce-order.js';
import { parseReferenceVersion, REFERENCE_VERSION_SQL, type ReferenceVersion } from '../db/reference-cache.js';
import { startContextSelect, toStartContext, type StartContext, type StartContextDbRow } from './start-context.js';

export interface NewOrderLine {
  sku: string;
  name: string | null;
  qty: number;
  unitPriceMinor: number | null;
  sellerId: string | null;
  locationId: string | null;
}

/** A new order: its run's start (flow, input, meta, vars), its facts, its lines and where it came from. */
export interface NewOrder extends Omit<CommerceOrderFacts, 'returnOf'> {
  id: string;
  flowId: string;
  flowVersion: number;
  input: Record<string, unknown>;
  meta: Record<string, unknown>;
  vars: Record<string, unknown>;
  lines: NewOrderLine[];
  restartedFrom?: string | null;
  /** The order a return gives units back to (contract 18); absent for any other order. */
  returnOf?: string | null;
  /** The start variables and who started it (order_origins), when the order has an origin to keep. */
  origin?: { startVars: Record<string, unknown>; startedBy: string };
}

/** Order ids are `ord_` + 24 hex characters: unguessable, URL-safe, sortable by nothing. */
export function newOrderId(): string {
  return `ord_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** A recorded order as the engine's first slice takes it: the row as stored, the reference version, the lines' reads. */
export interface RecordedOrder {
  row: OrderDbRow;
  referenceVersion: ReferenceVersion | null;
  seeds: CachedRead[];
  /**
   * The row's columns as JSON when it is not written yet: the first slice's write inserts it with the slice's outcome
   * (one version of the row, not an insert then an update). Absent when the row was inserted here.
   */
  newRow?: string;
}

/** The new order's columns with their values (nulls left out: they are NULL), the same a plain INSERT would store. */
function newOrderColumns(o: NewOrder, now: number): Record<string, unknown> {
  const row: Record<string, unknown> = {
    id: o.id, flow_id: o.flowId, flow_version: o.flowVersion, model: o.model, channel: o.channel, external_id: o.externalId,
    title: o.title, customer_id: o.customerId, contact_email: o.contactEmail, currency: o.currency, fx_rate: o.fxRate,
    subtotal_minor: o.subtotal, tax_minor: o.tax, total_minor: o.total, input: o.input, meta: o.meta, status: 'queued',
    instance_id: randomUUID(), generation: 1, compiler_version: COMPILER_VERSION, vars: o.vars, waiting_on: [], waiting_at: [],
    step_seq: 0, started: false, nodes: {}, restarted_from: o.restartedFrom ?? null, return_of: o.returnOf ?? null,
    created_at: now, updated_at: now,
  };
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * The row `columns` describes, as pg would return it once stored (bigint and numeric columns as text, the others
 * as they are, a column left out NULL): what the first slice runs on when the row is written by that slice.
 */
function storedRowOf(columns: Record<string, unknown>): OrderDbRow {
  // bigint and numeric columns: the numbers the JSON carries, as pg answers them (text).
  const text = (v: unknown) => (typeof v === 'number' ? String(v) : null);
  const or = <T>(v: unknown, fallback: T): T => (v === undefined ? fallback : (v as T));
  return {
    id: columns.id as string,
    flow_id: columns.flow_id as string,
    flow_version: columns.flow_version as number,
    model: columns.model as string,
    channel: columns.channel as string,
    external_id: or(columns.external_id, null),
    title: or(columns.title, null),
    customer_id: or(columns.customer_id, null),
    contact_email: or(columns.contact_email, null),
    currency: columns.currency as string,
    fx_rate: text(columns.fx_rate) as string,
    subtotal_minor: text(columns.subtotal_minor) as string,
    tax_minor: text(columns.tax_minor) as string,
    total_minor: text(columns.total_minor) as string,
    input: columns.input as Record<string, unknown>,
    meta: or(columns.meta, null),
    status: 'queued',
    reason: null,
    instance_id: columns.instance_id as string,
    generation: columns.generation as number,
    snapshot: null,
    compiler_version: columns.compiler_version as number,
    vars: or(columns.vars, null),
    rollback: null,
    step_seq: columns.step_seq as number,
    started: false,
    created_at: text(columns.created_at) as string,
    updated_at: text(columns.updated_at) as string,
    restarted_from: or(columns.restarted_from, null),
    return_of: or(columns.return_of, null),
  };
}

/** The order's lines and origin, as data-modifying CTEs after `WITH` (parameters $1 id, $2 lines, $3 start vars, $4 started by, $5 now). */
const LINES_AND_ORIGIN = `l AS (
       INSERT INTO order_lines (order_id, line_no, sku, name, qty, unit_price_minor, seller_id, location_id)
       SELECT $1, l.line_no, l.sku, l.name, l.qty, l.unit_price_minor, l.seller_id, l.location_id
         FROM jsonb_to_recordset($2::jsonb) AS l(line_no int, sku text, name text, qty int, unit_price_minor bigint, seller_id text, location_id text)),
     g AS (
       INSERT INTO order_origins (order_id, start_vars, started_by, created_at)
       SELECT $1, $3::jsonb, $4, $5::bigint WHERE $4::text IS NOT NULL)`;

/** Inserts the row now (`$6`: its columns as JSON), with its lines and origin, answering it as stored. */
const INSERT_WITH_ROW = `WITH o AS (INSERT INTO orders SELECT r.* FROM jsonb_populate_record(NULL::orders, $6::jsonb) AS r RETURNING *),
     ${LINES_AND_ORIGIN}
     SELECT o.*, ${REFERENCE_VERSION_SQL} AS reference_version FROM o`;

/**
 * Records a new order in one statement, its row inserted now: its lines, its origin and its row (an order started
 * later by `runtime.start`: a return, a stock-review order). Answers the row as stored, which the first slice runs
 * on, with the reference data's version (reference-cache.ts) read by the same statement.
 */
export async function insertOrder(q: Queryable, o: NewOrder, now: number): Promise<RecordedOrder> {
  const lines = lineRows(o.lines);
  const { rows } = await q.query<OrderDbRow & { reference_version: unknown }>(INSERT_WITH_ROW, [
    ...linesAndOriginParams(o.id, lines, o.origin, now),
    JSON.stringify(newOrderColumns(o, now)),
  ]);
  // The lines just written are what the first slice's steps read first: they start in its read cache.
  const { reference_version, ...row } = rows[0];
  return { row, referenceVersion: parseReferenceVersion(reference_version), seeds: [newOrderLinesRead(o.id, lines)] };
}

/** The lines as order_lines rows (numbered from 1). */
function lineRows(lines: readonly NewOrderLine[]) {
  return lines.map((l, i) => ({ line_no: i + 1, sku: l.sku, name: l.name, qty: l.qty, unit_price_minor: l.unitPriceMinor, seller_id: l.sellerId, location_id: l.locationId }));
}

/** LINES_AND_ORIGIN's parameters $1-$5. */
function linesAndOriginParams(id: string, lines: ReturnType<typeof lineRows>, origin: NewOrder['origin'], now: number): unknown[] {
  return [id, JSON.stringify(lines), JSON.stringify(origin?.startVars ?? {}), origin?.startedBy ?? null, now];
}

/** A new order's lines and origin inserted by the statement that reads its start context ($6 the flow id, $7 the version asked). */
const LINES_WITH_START_CONTEXT = `WITH ${LINES_AND_ORIGIN}
     ${startContextSelect('$6', '$7', `${REFERENCE_VERSION_SQL} AS reference_version`)}`;

/** What a start learns while it records a new order's lines: its start context, the reference version, the lines as read. */
export interface LinesRecorded {
  context: StartContext;
  referenceVersion: ReferenceVersion | null;
  seeds: CachedRead[];
}

/**
 * Records a new order's lines and origin and reads its start context (start-context.ts: the flow version it pins,
 * the workspace settings) in one statement, the first of its transaction: a start's lines do not depend on the
 * context, and its row is written by its first slice (`firstSliceOrder`). Throws the context's 409 after the lines
 * were written; the transaction is rolled back, so nothing of them stays.
 */
export async function recordLinesReadingStartContext(
  q: Queryable,
  o: { id: string; lines: readonly NewOrderLine[]; origin?: NewOrder['origin'] },
  flowId: string,
  version: number | undefined,
  now: number,
): Promise<LinesRecorded> {
  const lines = lineRows(o.lines);
  const { rows } = await q.query<StartContextDbRow & { reference_version: unknown }>(LINES_WITH_START_CONTEXT, [
    ...linesAndOriginParams(o.id, lines, o.origin, now),
    flowId,
    version ?? null,
  ]);
  return {
    context: toStartContext(rows[0], flowId, version),
    referenceVersion: parseReferenceVersion(rows[0]?.reference_version),
    seeds: [newOrderLinesRead(o.id, lines)],
  };
}

/**
 * A new order whose row its first slice writes (`runtime.startNew`: one version of the row, with the slice's
 * outcome; the foreign keys to orders are checked at COMMIT, migration 0025): the row as it will be stored, which
 * the slice runs on, and its columns as JSON, which the slice's write inserts.
 */
export function firstSliceOrder(o: NewOrder, now: number, recorded: LinesRecorded): RecordedOrder {
  const columns = newOrderColumns(o, now);
  return { row: storedRowOf(columns), referenceVersion: recorded.referenceVersion, seeds: recorded.seeds, newRow: JSON.stringify(columns) };
}
