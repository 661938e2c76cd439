// Records a new order (row, lines, where it came from) in one statement; its first run slice follows in the same transaction.
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
}

/**
 * Writes the order row, its lines and its origin in one statement (data-modifying WITH: the
 * lines' and origin's foreign keys are checked at the end of the statement, after the row) and
 * answers the row as stored, which the first slice runs on (the engine reads it as the lock does), with the reference data's version
 * (reference-cache.ts) read by the same statement.
 */
export async function insertOrder(
  q: Queryable,
  o: NewOrder,
  now: number,
): Promise<RecordedOrder> {
  const lines = o.lines.map((l, i) => ({ line_no: i + 1, sku: l.sku, name: l.name, qty: l.qty, unit_price_minor: l.unitPriceMinor, seller_id: l.sellerId, location_id: l.locationId }));
  const { rows } = await q.query<OrderDbRow & { reference_version: unknown }>(
    `WITH o AS (
       INSERT INTO orders (id, flow_id, flow_version, model, channel, external_id, title, customer_id, contact_email, currency,
         fx_rate, subtotal_minor, tax_minor, total_minor, input, meta, status, instance_id, generation, compiler_version, vars,
         restarted_from, return_of, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 'queued', $17, 1, $18, $19, $20, $25, $21, $21)
       RETURNING *),
     l AS (
       INSERT INTO order_lines (order_id, line_no, sku, name, qty, unit_price_minor, seller_id, location_id)
       SELECT $1, l.line_no, l.sku, l.name, l.qty, l.unit_price_minor, l.seller_id, l.location_id
         FROM jsonb_to_recordset($22::jsonb) AS l(line_no int, sku text, name text, qty int, unit_price_minor bigint, seller_id text, location_id text)),
     g AS (
       INSERT INTO order_origins (order_id, start_vars, started_by, created_at)
       SELECT $1, $23::jsonb, $24, $21 WHERE $24::text IS NOT NULL)
     SELECT o.*, ${REFERENCE_VERSION_SQL} AS reference_version FROM o`,
    [
      o.id, o.flowId, o.flowVersion, o.model, o.channel, o.externalId, o.title, o.customerId, o.contactEmail, o.currency,
      o.fxRate, o.subtotal, o.tax, o.total, JSON.stringify(o.input), JSON.stringify(o.meta), randomUUID(),
      COMPILER_VERSION, JSON.stringify(o.vars), o.restartedFrom ?? null, now,
      JSON.stringify(lines), JSON.stringify(o.origin?.startVars ?? {}), o.origin?.startedBy ?? null, o.returnOf ?? null,
    ],
  );
  // The lines just written are what the first slice's steps read first: they start in its read cache.
  const { reference_version, ...row } = rows[0];
  return { row, referenceVersion: parseReferenceVersion(reference_version), seeds: [newOrderLinesRead(o.id, lines)] };
}
