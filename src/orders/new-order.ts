// Records a new order (lines, where it came from, and its row now or with its first slice) in one statement; its first run slice follows in the same transaction.
import { newOrderLinesRead } from '../commerce/order-lines-repo.js';
import type { CachedRead } from '../db/transaction-read-cache.js';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { COMPILER_VERSION } from '../engine/compiler.js';
import type { OrderDbRow } from './order-row.js';
import type { CommerceOrderFacts } from '../commerce/commerce-order.js';
import { parseReferenceVersion, REFERENCE_VERSION_SQL, type ReferenceVersion } from '../db/reference-cache.js';

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

/** The new order's row as JSON of its columns, nulls left out (they are NULL); the same values a plain INSERT would store. */
function newOrderRow(o: NewOrder, now: number): string {
  const row: Record<string, unknown> = {
    id: o.id, flow_id: o.flowId, flow_version: o.flowVersion, model: o.model, channel: o.channel, external_id: o.externalId,
    title: o.title, customer_id: o.customerId, contact_email: o.contactEmail, currency: o.currency, fx_rate: o.fxRate,
    subtotal_minor: o.subtotal, tax_minor: o.tax, total_minor: o.total, input: o.input, meta: o.meta, status: 'queued',
    instance_id: randomUUID(), generation: 1, compiler_version: COMPILER_VERSION, vars: o.vars, waiting_on: [], waiting_at: [],
    step_seq: 0, started: false, nodes: {}, restarted_from: o.restartedFrom ?? null, return_of: o.returnOf ?? null,
    created_at: now, updated_at: now,
  };
  return JSON.stringify(Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined)));
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

/** Inserts the lines and origin only, answering the row (`$6`) as it will be stored by the first slice's write. */
const INSERT_ROW_LATER = `WITH ${LINES_AND_ORIGIN}
     SELECT o.*, ${REFERENCE_VERSION_SQL} AS reference_version FROM jsonb_populate_record(NULL::orders, $6::jsonb) AS o`;

/**
 * Records a new order in one statement: its lines and origin, and its row, which is either inserted here
 * (`rowWrittenBy: 'now'`, an order started later by `runtime.start`) or left to the first slice's write
 * (`'first slice'`, `runtime.startNew`: the row is written once, with the slice's outcome; the foreign keys to
 * orders are checked at COMMIT, migration 0025). Answers the row as it is (or will be) stored, which the first
 * slice runs on, with the reference data's version (reference-cache.ts) read by the same statement.
 */
export async function insertOrder(q: Queryable, o: NewOrder, now: number, rowWrittenBy: 'now' | 'first slice' = 'now'): Promise<RecordedOrder> {
  const lines = o.lines.map((l, i) => ({ line_no: i + 1, sku: l.sku, name: l.name, qty: l.qty, unit_price_minor: l.unitPriceMinor, seller_id: l.sellerId, location_id: l.locationId }));
  const newRow = newOrderRow(o, now);
  const { rows } = await q.query<OrderDbRow & { reference_version: unknown }>(rowWrittenBy === 'now' ? INSERT_WITH_ROW : INSERT_ROW_LATER, [
    o.id,
    JSON.stringify(lines),
    JSON.stringify(o.origin?.startVars ?? {}),
    o.origin?.startedBy ?? null,
    now,
    newRow,
  ]);
  // The lines just written are what the first slice's steps read first: they start in its read cache.
  const { reference_version, ...row } = rows[0];
  return { row, referenceVersion: parseReferenceVersion(reference_version), seeds: [newOrderLinesRead(o.id, lines)], ...(rowWrittenBy === 'first slice' ? { newRow } : {}) };
}
