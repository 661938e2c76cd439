// When an order takes a return (contract 18): a payment captured or charged, its return window open, not itself a return.

const DAY_MS = 86_400_000;

/** What decides whether an order takes a return now. */
export interface ReturnWindowFacts {
  orderId: string;
  status: string;
  /** The order is itself a return. */
  isReturn: boolean;
  /** When its first payment was captured or charged (epoch ms); null: none yet. */
  capturedAt: number | null;
  /** Its flow schedules payouts (a `commerce.payout` node): the window closes when that node runs. */
  hasPayoutNode: boolean;
  /** That payout node has run. */
  payoutRan: boolean;
  /** The workspace's `returnWindowDays` (flows without a payout node: the window is this long after capture). */
  windowDays: number;
  /** The time to check the window of a flow without a payout node at; null leaves the time out (a view shows `returnWindowEndsAt`). */
  now: number | null;
}

/** Why a return is refused (a 409), with a stable code. */
export interface ReturnRefusal {
  code: 'return_of_return' | 'order_ended' | 'not_captured' | 'payout_ran' | 'return_window_closed';
  message: string;
}

/** Statuses of an order that end it without its goods being kept: it takes no returns (and its open ones are cancelled). */
const ENDED_WITHOUT_SALE: ReadonlySet<string> = new Set(['cancelled', 'failed', 'rolled_back', 'declined']);

/** When the window of an order without a payout node closes (epoch ms), or null when it is not open yet (nothing captured). */
export function returnWindowEndsAt(capturedAt: number | null, windowDays: number): number | null {
  return capturedAt === null ? null : capturedAt + windowDays * DAY_MS;
}

/** Null when a return may start now, else why not. */
export function returnRefusal(f: ReturnWindowFacts): ReturnRefusal | null {
  if (f.isReturn) return { code: 'return_of_return', message: `${f.orderId} is a return: a return cannot itself be returned` };
  if (ENDED_WITHOUT_SALE.has(f.status)) return { code: 'order_ended', message: `Order ${f.orderId} ended ${f.status.replace('_', ' ')}: it takes no returns` };
  if (f.capturedAt === null) return { code: 'not_captured', message: `Order ${f.orderId} has no captured or charged payment yet: there is nothing to return` };
  if (f.hasPayoutNode) {
    if (f.payoutRan) return { code: 'payout_ran', message: `The payouts of order ${f.orderId} were scheduled: its return window is closed` };
    return null;
  }
  const endsAt = returnWindowEndsAt(f.capturedAt, f.windowDays)!;
  if (f.now !== null && f.now >= endsAt) return { code: 'return_window_closed', message: `The return window of order ${f.orderId} closed on ${new Date(endsAt).toISOString()}` };
  return null;
}
