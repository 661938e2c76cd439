// The back office's payouts: every order's payouts by status, and "mark paid" (scheduled -> paid, audited).
import type { Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import type { Principal } from '../auth/principal.js';
import { auditActorOf, writeAuditEvent } from '../auth/audit-log.js';
import { conflict, notFound } from '../domain/errors.js';
import { payScheduledPayout, recentPayouts, type PayoutStatus } from '../commerce/payouts-repo.js';
import { payoutView } from './seller-views.js';

/** At most this many payouts per list. */
export const PAYOUTS_LISTED = 500;

export interface PayoutLedgerDeps {
  db: Queryable;
  clock: Clock;
  logger: Logger;
}

export async function listPayouts(db: Queryable, filter: { status?: PayoutStatus; limit?: number }) {
  return (await recentPayouts(db, { status: filter.status, limit: Math.min(filter.limit ?? PAYOUTS_LISTED, PAYOUTS_LISTED) })).map(payoutView);
}

/**
 * Records that a scheduled payout was paid to the seller (the money left outside this service).
 * 404 for an unknown payout; 409 when it is already paid or was reversed (an undone order).
 * Audited as `payout.paid` with the seller, order and net amount.
 */
export async function markPayoutPaid(deps: PayoutLedgerDeps, caller: Principal, id: string, ip: string | null) {
  const result = await payScheduledPayout(deps.db, id, deps.clock.now());
  if (!result) throw notFound('Payout');
  if (!result.changed) throw conflict(`Payout ${id} is ${result.payout.status}, not scheduled: only a scheduled payout can be marked paid`);
  const view = payoutView(result.payout);
  await writeAuditEvent(deps.db, deps.clock, deps.logger, {
    ...auditActorOf(caller),
    action: 'payout.paid',
    target: id,
    detail: { orderId: view.orderId, sellerId: view.sellerId, net: view.net, currency: view.currency },
    ip,
  });
  return view;
}
