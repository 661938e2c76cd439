// Recording sellers' answers on their seller orders and choosing the seller-accept branch.
import type { SellerOrderStatus } from './seller-split.js';

export const SELLER_DECISIONS = ['accepted', 'rejected'] as const;
export type SellerDecision = (typeof SELLER_DECISIONS)[number];

/** Reason recorded when the wait times out with a seller still pending. */
export const NO_RESPONSE_REASON = 'No response';

/** Longest rejection reason kept; longer reasons are cut, not refused (only sellerId/decision fail the step). */
export const SELLER_REASON_MAX = 500;

/** The `seller.responded` payload: `{ sellerId, decision, reason? }`. */
export interface SellerAnswer {
  sellerId: string;
  decision: SellerDecision;
  reason?: string;
}

/** What seller-accept reads and writes of a seller order; first party has `sellerId: null`. */
export interface SellerOrderState {
  sellerId: string | null;
  status: SellerOrderStatus;
  reason?: string | null;
}

export type AcceptBranch = 'pending' | 'accepted' | 'partial' | 'rejected';

export const INVALID_ANSWER_MESSAGE = 'Seller response needs a sellerId and a decision of accepted or rejected';

/**
 * Validates a delivered payload. Extra keys (the wait node adds `event` and `at`) are ignored.
 * A payload lacking sellerId or a valid decision is an error: the step fails.
 */
export function parseSellerAnswer(payload: unknown): { ok: true; answer: SellerAnswer } | { ok: false; message: string } {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return { ok: false, message: INVALID_ANSWER_MESSAGE };
  const { sellerId, decision, reason } = payload as Record<string, unknown>;
  if (typeof sellerId !== 'string' || sellerId.length === 0) return { ok: false, message: INVALID_ANSWER_MESSAGE };
  if (decision !== 'accepted' && decision !== 'rejected') return { ok: false, message: INVALID_ANSWER_MESSAGE };
  const answer: SellerAnswer = { sellerId, decision };
  if (typeof reason === 'string' && reason.length > 0) answer.reason = reason.slice(0, SELLER_REASON_MAX);
  return { ok: true, answer };
}

/**
 * Applies one answer: only the matching seller's part, and only while pending, changes.
 * A repeated or late answer for an accepted or rejected part changes nothing.
 */
export function applySellerAnswer<T extends SellerOrderState>(orders: readonly T[], answer: SellerAnswer): { orders: T[]; changed: string[] } {
  const changed: string[] = [];
  const next = orders.map((order) => {
    if (order.sellerId !== answer.sellerId || order.status !== 'pending') return order;
    changed.push(answer.sellerId);
    return answer.decision === 'accepted'
      ? { ...order, status: 'accepted' as const, reason: null }
      : { ...order, status: 'rejected' as const, reason: answer.reason ?? null };
  });
  return { orders: next, changed };
}

/** Wait timed out: every still-pending part becomes rejected with reason `No response`. */
export function expirePending<T extends SellerOrderState>(orders: readonly T[]): { orders: T[]; changed: string[] } {
  const changed: string[] = [];
  const next = orders.map((order) => {
    if (order.status !== 'pending') return order;
    if (order.sellerId !== null) changed.push(order.sellerId);
    return { ...order, status: 'rejected' as const, reason: NO_RESPONSE_REASON };
  });
  return { orders: next, changed };
}

/**
 * The branch per the spec table, over all parts (a first-party part counts as accepted;
 * cancelled parts count as neither): pending if any is pending; otherwise accepted when all
 * are accepted, partial when some are, rejected when none is.
 */
export function acceptanceBranch(orders: readonly SellerOrderState[]): AcceptBranch {
  if (orders.some((o) => o.status === 'pending')) return 'pending';
  const accepted = orders.filter((o) => o.status === 'accepted').length;
  const rejected = orders.filter((o) => o.status === 'rejected').length;
  if (accepted === 0) return 'rejected';
  return rejected === 0 ? 'accepted' : 'partial';
}

export type SellerAcceptCommand = { mode: 'from_event'; payload: unknown } | { mode: 'expire_pending' };

export type SellerAcceptResult<T extends SellerOrderState> =
  | {
      ok: true;
      orders: T[];
      /** Seller ids whose part changed in this step. */
      changed: string[];
      branch: AcceptBranch;
      pendingSellers: string[];
      acceptedSellers: string[];
      /** Third-party sellers whose lines are dropped (`vars.rejectedSellers`). */
      rejectedSellers: string[];
    }
  | { ok: false; message: string };

/** One seller-accept step: `from_event` records the payload's answer, `expire_pending` closes the wait. */
export function evaluateSellerAccept<T extends SellerOrderState>(orders: readonly T[], command: SellerAcceptCommand): SellerAcceptResult<T> {
  let applied: { orders: T[]; changed: string[] };
  if (command.mode === 'expire_pending') applied = expirePending(orders);
  else {
    const parsed = parseSellerAnswer(command.payload);
    if (!parsed.ok) return parsed;
    applied = applySellerAnswer(orders, parsed.answer);
  }
  const idsWith = (status: SellerOrderStatus) =>
    applied.orders.flatMap((o) => (o.sellerId !== null && o.status === status ? [o.sellerId] : []));
  return {
    ok: true,
    orders: applied.orders,
    changed: applied.changed,
    branch: acceptanceBranch(applied.orders),
    pendingSellers: idsWith('pending'),
    acceptedSellers: idsWith('accepted'),
    rejectedSellers: idsWith('rejected'),
  };
}
