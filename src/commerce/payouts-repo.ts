// Payouts in PostgreSQL: scheduled per accepted third-party seller; reversed on undo unless already paid.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import type { PayoutAmounts } from '../domain/payout-math.js';

export type PayoutStatus = 'scheduled' | 'reversed' | 'paid';

export interface PayoutRow extends PayoutAmounts {
  id: string;
  orderId: string;
  sellerOrderId: string;
  commissionRate: number;
  currency: string;
  status: PayoutStatus;
  scheduledAt: number;
  paidAt: number | null;
  reversedAt: number | null;
}

/** A `payouts` row as pg returns it (bigint and numeric columns as text). */
interface PayoutDbRow {
  id: string;
  order_id: string;
  seller_id: string;
  seller_order_id: string;
  gross_minor: string;
  refunded_minor: string;
  commission_minor: string;
  net_minor: string;
  commission_rate: string;
  currency: string;
  status: PayoutStatus;
  scheduled_at: string;
  paid_at: string | null;
  reversed_at: string | null;
}

function toRow(r: PayoutDbRow): PayoutRow {
  return {
    id: r.id,
    orderId: r.order_id,
    sellerId: r.seller_id,
    sellerOrderId: r.seller_order_id,
    gross: Number(r.gross_minor),
    refunded: Number(r.refunded_minor),
    commission: Number(r.commission_minor),
    net: Number(r.net_minor),
    commissionRate: Number(r.commission_rate),
    currency: r.currency,
    status: r.status,
    scheduledAt: Number(r.scheduled_at),
    paidAt: r.paid_at === null ? null : Number(r.paid_at),
    reversedAt: r.reversed_at === null ? null : Number(r.reversed_at),
  };
}

/** A payout to schedule (`schedulePayouts`). */
export type NewPayout = PayoutAmounts & { sellerOrderId: string; commissionRate: number };

/**
 * Schedules the order's payouts in one statement; a seller that already has one for the order
 * keeps it as it is (retry-safe). Returns the stored payout of each seller asked for, in the
 * order asked: the main SELECT reads the rows as they were before the statement, and the
 * INSERT's RETURNING adds the new ones.
 */
export async function schedulePayouts(q: Queryable, orderId: string, currency: string, payouts: readonly NewPayout[], now: number): Promise<PayoutRow[]> {
  if (payouts.length === 0) return [];
  const input = payouts.map((p) => ({
    id: newCommerceId('po'),
    seller_id: p.sellerId,
    seller_order_id: p.sellerOrderId,
    gross_minor: p.gross,
    refunded_minor: p.refunded,
    commission_rate: p.commissionRate,
    commission_minor: p.commission,
    net_minor: p.net,
  }));
  const { rows } = await q.query<PayoutDbRow>(
    `WITH added AS (
       INSERT INTO payouts (id, order_id, seller_id, seller_order_id, gross_minor, refunded_minor, commission_rate, commission_minor,
                            net_minor, currency, status, scheduled_at)
       SELECT p.id, $2, p.seller_id, p.seller_order_id, p.gross_minor, p.refunded_minor, p.commission_rate, p.commission_minor,
              p.net_minor, $3, 'scheduled', $4
         FROM jsonb_to_recordset($1::jsonb)
           AS p(id text, seller_id text, seller_order_id text, gross_minor bigint, refunded_minor bigint, commission_rate numeric,
                commission_minor bigint, net_minor bigint)
       ON CONFLICT ON CONSTRAINT payouts_one_per_seller DO NOTHING
       RETURNING *)
     SELECT * FROM added UNION ALL SELECT * FROM payouts WHERE order_id = $2`,
    [JSON.stringify(input), orderId, currency, now],
  );
  const bySeller = new Map(rows.map((r) => [r.seller_id, toRow(r)]));
  return payouts.map((p) => bySeller.get(p.sellerId)!);
}

/** Rollback or cancel: scheduled payouts become reversed; a paid payout is left alone. */
export async function reverseScheduledPayouts(q: Queryable, orderId: string, now: number): Promise<string[]> {
  const { rows } = await q.query<{ seller_id: string }>(
    `UPDATE payouts SET status = 'reversed', reversed_at = $2 WHERE order_id = $1 AND status = 'scheduled' RETURNING seller_id`,
    [orderId, now],
  );
  return rows.map((r) => r.seller_id);
}

export async function payoutsOf(q: Queryable, orderId: string): Promise<PayoutRow[]> {
  const { rows } = await q.query<PayoutDbRow>('SELECT * FROM payouts WHERE order_id = $1 ORDER BY scheduled_at, seller_id', [orderId]);
  return rows.map(toRow);
}

/** Succeeded refunds of the order so far, in minor units (the payout formula's "refunds so far"). */
export async function succeededRefundsMinor(q: Queryable, orderId: string): Promise<number> {
  const { rows } = await q.query<{ total: string }>(`SELECT coalesce(sum(amount_minor), 0) AS total FROM refunds WHERE order_id = $1 AND status = 'succeeded'`, [orderId]);
  return Number(rows[0].total);
}

/** Every order's payouts, newest first, optionally of one status (the back office). */
export async function recentPayouts(q: Queryable, filter: { status?: PayoutStatus; limit: number }): Promise<PayoutRow[]> {
  const { rows } = filter.status
    ? await q.query<PayoutDbRow>('SELECT * FROM payouts WHERE status = $1 ORDER BY scheduled_at DESC, id DESC LIMIT $2', [filter.status, filter.limit])
    : await q.query<PayoutDbRow>('SELECT * FROM payouts ORDER BY scheduled_at DESC, id DESC LIMIT $1', [filter.limit]);
  return rows.map(toRow);
}

/**
 * Marks a scheduled payout paid in one statement (two callers cannot both pay it). Answers the
 * payout as it now stands, `changed` false when it was not scheduled; null when there is none.
 */
export async function payScheduledPayout(q: Queryable, id: string, now: number): Promise<{ payout: PayoutRow; changed: boolean } | null> {
  const paid = await q.query<PayoutDbRow>(`UPDATE payouts SET status = 'paid', paid_at = $2 WHERE id = $1 AND status = 'scheduled' RETURNING *`, [id, now]);
  if (paid.rows.length > 0) return { payout: toRow(paid.rows[0]), changed: true };
  const { rows } = await q.query<PayoutDbRow>('SELECT * FROM payouts WHERE id = $1', [id]);
  return rows.length > 0 ? { payout: toRow(rows[0]), changed: false } : null;
}
