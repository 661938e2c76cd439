// What assess_order reads from the database: the order's own signals and its comparable finished orders (same model, flow, seller, customer).
import type { Queryable } from '../db/db.js';
import { notFound } from '../domain/errors.js';
import { fraudScore } from '../domain/fraud-score.js';
import { convertMinor } from '../domain/fx.js';
import type { ShipTo } from '../domain/ship-to.js';
import { FINISHED_STATUSES, isFinished } from '../engine/runtime/run-row.js';
import type { AssessedOrder, PastOrder, PastSellerOrder } from './order-assessment.js';

/** Most comparable orders (and seller orders) read, newest first: enough for stable rates, bounded work per call. */
export const COMPARABLE_LIMIT = 5000;

/** Approval statuses that count as "not approved": rejected, escalated (nobody decided in time), timed out. */
const REFUSED_APPROVALS = ['rejected', 'escalated', 'timeout'];

/** The order's columns assess_order reads (bigint and numeric columns as text). */
interface AssessedOrderDbRow {
  id: string;
  status: string;
  flow_id: string;
  model: string;
  customer_id: string | null;
  contact_email: string | null;
  currency: string;
  fx_rate: string;
  total_minor: string;
  meta: Record<string, unknown> | null;
  vars: { fraud?: { score?: unknown } } | null;
  created_at: string;
  shipped_at: string | null;
}

/** One comparable finished order with its cohorts and outcomes (`shipped_after` a bigint difference, as text). */
interface PastOrderDbRow {
  status: string;
  same_model: boolean;
  same_flow: boolean;
  same_customer: boolean;
  same_seller: boolean;
  fraud_high: boolean | null;
  approvals_approved: number;
  approvals_refused: number;
  shipped_after: string | null;
}

/** The order with its own signals; an unknown order is a not_found DomainError. */
export async function readAssessedOrder(db: Queryable, orderId: string): Promise<AssessedOrder> {
  const { rows } = await db.query<AssessedOrderDbRow>(
    `SELECT id, status, flow_id, model, customer_id, contact_email, currency, fx_rate, total_minor, meta, vars, created_at,
            (SELECT min(created_at) FROM shipments s WHERE s.order_id = o.id) AS shipped_at
       FROM orders o WHERE id = $1`,
    [orderId],
  );
  const row = rows[0];
  if (!row) throw notFound('Order');
  const [lines, waits, sellerOrders] = await Promise.all([
    db.query<{ seller_id: string | null; qty: number }>('SELECT seller_id, qty FROM order_lines WHERE order_id = $1 AND NOT dropped ORDER BY line_no', [orderId]),
    db.query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM order_waits WHERE order_id = $1 AND kind = 'approval' GROUP BY status", [orderId]),
    db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM seller_orders WHERE order_id = $1 AND seller_id IS NOT NULL GROUP BY status', [orderId]),
  ]);
  const waitCount = (statuses: string[]) => waits.rows.filter((w) => statuses.includes(w.status)).reduce((s, w) => s + w.n, 0);
  const sellerCount = (status: string) => sellerOrders.rows.find((r) => r.status === status)?.n ?? 0;

  const meta = row.meta ?? {};
  const vars = row.vars ?? {};
  const fxRate = Number(row.fx_rate) || 1;
  const computed = fraudScore({
    baseTotalUsdMinor: convertMinor(Number(row.total_minor), row.currency, 'USD', { USD: 1, [row.currency]: row.currency === 'USD' ? 1 : fxRate }),
    currency: row.currency,
    customerId: row.customer_id,
    contactEmail: row.contact_email,
    shipTo: (meta.shipTo as ShipTo | string | undefined) ?? null,
    lines: lines.rows,
    meta,
  });
  const recorded = typeof vars.fraud?.score === 'number' && Number.isFinite(vars.fraud.score) ? Math.min(100, Math.max(0, vars.fraud.score)) : null;

  return {
    id: row.id,
    status: row.status,
    finished: isFinished(row.status),
    flowId: row.flow_id,
    model: row.model,
    customerId: row.customer_id,
    sellerIds: [...new Set(lines.rows.map((l) => l.seller_id).filter((s): s is string => s !== null))],
    createdAt: Number(row.created_at),
    fraud: { score: recorded ?? computed.score, recorded: recorded !== null, signals: computed.signals.map(({ code, detail }) => ({ code, detail })) },
    approvals: { approved: waitCount(['approved']), refused: waitCount(REFUSED_APPROVALS), open: waitCount(['open']) },
    sellerOrders: { accepted: sellerCount('accepted'), rejected: sellerCount('rejected'), pending: sellerCount('pending') },
    shippedAt: row.shipped_at === null ? null : Number(row.shipped_at),
  };
}

/**
 * The newest finished orders sharing the order's model, flow, a third-party seller or its customer,
 * with which of those they share and the outcomes assess_order counts: status, decided approvals,
 * the fraud step's verdict, time to first shipment.
 */
export async function readComparableOrders(db: Queryable, order: AssessedOrder): Promise<PastOrder[]> {
  const { rows } = await db.query<PastOrderDbRow>(
    `WITH past AS (
       SELECT o.id, o.status, o.created_at, o.vars,
              o.model = $2 AS same_model,
              o.flow_id = $3 AS same_flow,
              coalesce(o.customer_id = $4, false) AS same_customer,
              EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.seller_id = ANY($5::text[])) AS same_seller
         FROM orders o
        WHERE o.status = ANY($6::text[]) AND o.id <> $1
          AND (o.model = $2 OR o.flow_id = $3 OR o.customer_id = $4
               OR EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.seller_id = ANY($5::text[])))
        ORDER BY o.created_at DESC, o.id DESC
        LIMIT ${COMPARABLE_LIMIT}
     )
     SELECT p.status, p.same_model, p.same_flow, p.same_customer, p.same_seller,
            CASE p.vars->'fraud'->'high' WHEN 'true'::jsonb THEN true WHEN 'false'::jsonb THEN false END AS fraud_high,
            (SELECT count(*) FROM order_waits w WHERE w.order_id = p.id AND w.kind = 'approval' AND w.status = 'approved')::int AS approvals_approved,
            (SELECT count(*) FROM order_waits w WHERE w.order_id = p.id AND w.kind = 'approval' AND w.status = ANY($7::text[]))::int AS approvals_refused,
            (SELECT min(s.created_at) FROM shipments s WHERE s.order_id = p.id) - p.created_at AS shipped_after
       FROM past p`,
    [order.id, order.model, order.flowId, order.customerId, order.sellerIds, [...FINISHED_STATUSES], REFUSED_APPROVALS],
  );
  return rows.map((r) => ({
    status: r.status,
    cohorts: { model: r.same_model, flow: r.same_flow, seller: r.same_seller, customer: r.same_customer },
    approvalsApproved: r.approvals_approved,
    approvalsRefused: r.approvals_refused,
    fraudHigh: r.fraud_high,
    shippedAfterMs: r.shipped_after === null ? null : Number(r.shipped_after),
  }));
}

/** The newest decided seller orders of other orders on the same flow or with the same third-party sellers. */
export async function readComparableSellerOrders(db: Queryable, order: AssessedOrder): Promise<PastSellerOrder[]> {
  const { rows } = await db.query<{ accepted: boolean; same_flow: boolean; same_seller: boolean }>(
    `SELECT so.status = 'accepted' AS accepted, o.flow_id = $2 AS same_flow, so.seller_id = ANY($3::text[]) AS same_seller
       FROM seller_orders so JOIN orders o ON o.id = so.order_id
      WHERE so.order_id <> $1 AND so.seller_id IS NOT NULL AND so.status IN ('accepted', 'rejected')
        AND (o.flow_id = $2 OR so.seller_id = ANY($3::text[]))
      ORDER BY so.created_at DESC, so.id DESC
      LIMIT ${COMPARABLE_LIMIT}`,
    [order.id, order.flowId, order.sellerIds],
  );
  return rows.map((r) => ({ accepted: r.accepted, sameFlow: r.same_flow, sameSeller: r.same_seller }));
}
