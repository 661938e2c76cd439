// Marketplace orders as load: a seeded plan per order (review, seller answers), and a driver that carries them
// out over the REST API, retrying through restarts and outages until each request gets a definitive answer.
import type { DbProbe } from './db-probe.js';
import type { Reply, ServiceProcess } from './service-process.js';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const THIRD_PARTY = ['seller_acme', 'seller_bolt'] as const;
export type ThirdParty = (typeof THIRD_PARTY)[number];

/** What the buyer's trust-and-safety review does: not needed, approved, rejected, or nobody decides. */
export type ReviewPlan = 'none' | 'approved' | 'rejected' | 'silent';
/** What a seller answers; `silent` lets the 2-day wait expire it. */
export type SellerPlan = 'accepted' | 'rejected' | 'silent';

export interface OrderPlan {
  key: string;
  firstParty: boolean;
  review: ReviewPlan;
  sellers: Record<ThirdParty, SellerPlan>;
  orderId?: string;
}

export interface ExpectedOutcome {
  status: 'completed' | 'declined' | 'failed';
  reason: string | null;
  /** Third-party sellers that end accepted (one payout each when completed). */
  accepted: ThirdParty[];
}

/** Lines: a pan from seller_acme, a tent from seller_bolt and, for most orders, a first-party mug. */
export function planLines(plan: OrderPlan): { sku: string; qty: number }[] {
  return [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }, ...(plan.firstParty ? [{ sku: 'MUG-1', qty: 2 }] : [])];
}

export function planOrders(count: number, random: () => number, prefix: string): OrderPlan[] {
  const pick = <T>(weighted: [T, number][]): T => {
    let r = random() * weighted.reduce((n, [, w]) => n + w, 0);
    for (const [v, w] of weighted) if ((r -= w) < 0) return v;
    return weighted[weighted.length - 1][0];
  };
  const seller = (): SellerPlan => pick<SellerPlan>([['accepted', 75], ['rejected', 15], ['silent', 10]]);
  return Array.from({ length: count }, (_, i) => ({
    key: `${prefix}-${i}`,
    firstParty: random() < 0.7,
    review: pick<ReviewPlan>([['none', 80], ['approved', 8], ['rejected', 6], ['silent', 6]]),
    sellers: { seller_acme: seller(), seller_bolt: seller() },
  }));
}

/** The flow's outcome for a plan (machines/README.md, tpl-marketplace-order). */
export function expectedOutcome(plan: OrderPlan): ExpectedOutcome {
  if (plan.review === 'rejected') return { status: 'declined', reason: 'Declined by trust and safety', accepted: [] };
  if (plan.review === 'silent') return { status: 'declined', reason: 'Trust and safety review timed out', accepted: [] };
  const accepted = THIRD_PARTY.filter((s) => plan.sellers[s] === 'accepted');
  if (accepted.length === 0 && !plan.firstParty) return { status: 'failed', reason: 'No seller accepted', accepted: [] };
  return { status: 'completed', reason: null, accepted };
}

export function startBody(plan: OrderPlan): Record<string, unknown> {
  return {
    flowId: 'tpl-marketplace-order',
    input: {
      model: 'marketplace',
      channel: 'marketplace',
      customerId: 'cust_1',
      title: `Resilience ${plan.key}`,
      lines: planLines(plan),
      ...(plan.review === 'none' ? {} : { meta: { simulate: 'high_risk' } }),
    },
  };
}

interface OrderState {
  id: string;
  status: string;
  waits: { kind: string; node: string; event: string | null }[] | null;
  pending: string[] | null;
}

const FINISHED = new Set(['completed', 'declined', 'failed', 'cancelled', 'rolled_back']);

/** Runs `fn` over `items` with at most `concurrency` at a time. */
export async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

export interface DriverStats {
  requests: number;
  /** Requests that got no answer (the service was down) or a 503, then were retried. */
  retried: number;
  /** Answers with a 5xx other than 503: each is a failure of the suite. */
  serverErrors: { method: string; path: string; status: number; text: string }[];
  /** Approval waits seen on orders planned without a review. */
  unexpectedReviews: string[];
}

/**
 * Carries plans out through the REST API. Every command is retried until it gets a definitive
 * answer (anything but no answer or 503), so a crash or an outage delays it but never drops it.
 * Starts carry an Idempotency-Key, so a retry after an unknown outcome never starts a second order.
 */
export class MarketplaceDriver {
  readonly stats: DriverStats = { requests: 0, retried: 0, serverErrors: [], unexpectedReviews: [] };
  private clockNow = 0;

  constructor(
    private readonly svc: ServiceProcess,
    private readonly db: DbProbe,
    readonly plans: OrderPlan[],
    private readonly patienceMs = 180_000,
  ) {}

  /** One command, retried until the service answers it definitively. */
  async send<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>> {
    const deadline = Date.now() + this.patienceMs;
    for (;;) {
      this.stats.requests += 1;
      const reply = this.svc.running ? await this.svc.call<T>(method, path, body, { headers }) : null;
      if (reply && reply.status !== 0 && reply.status !== 503) {
        if (reply.status >= 500) this.stats.serverErrors.push({ method, path, status: reply.status, text: reply.text.slice(0, 300) });
        return reply;
      }
      if (Date.now() > deadline) throw new Error(`${method} ${path}: no definitive answer within ${this.patienceMs} ms (${reply?.error ?? reply?.status ?? 'down'})`);
      this.stats.retried += 1;
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** Starts every plan (Idempotency-Key = plan key); records the order id. */
  async start(plans: readonly OrderPlan[], concurrency = 6): Promise<void> {
    await pool(plans, concurrency, async (plan) => {
      const reply = await this.send('POST', '/api/v1/orders', startBody(plan), { 'idempotency-key': plan.key });
      if (reply.status !== 201 && reply.status !== 200) throw new Error(`start ${plan.key}: ${reply.status} ${reply.text}`);
      if (plan.orderId && plan.orderId !== reply.body.orderId) throw new Error(`start ${plan.key}: replay named another order`);
      plan.orderId = reply.body.orderId;
    });
  }

  /** Orders of started plans as the database has them now. */
  async states(): Promise<Map<string, OrderState>> {
    const ids = this.plans.flatMap((p) => (p.orderId ? [p.orderId] : []));
    const rows = await this.db<OrderState>(
      `SELECT o.id, o.status,
              (SELECT json_agg(json_build_object('kind', w.kind, 'node', w.node_id, 'event', w.event))
                 FROM order_waits w WHERE w.order_id = o.id AND w.status = 'open') AS waits,
              (SELECT json_agg(s.seller_id) FROM seller_orders s
                WHERE s.order_id = o.id AND s.status = 'pending' AND s.seller_id IS NOT NULL) AS pending
         FROM orders o WHERE o.id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * One pass over the unfinished orders: decide open reviews and answer pending sellers as
   * planned. Returns how many started orders are not finished.
   */
  async act(concurrency = 6): Promise<number> {
    const states = await this.states();
    const open = this.plans.filter((p) => p.orderId && !FINISHED.has(states.get(p.orderId)?.status ?? 'missing'));
    await pool(open, concurrency, async (plan) => {
      const state = states.get(plan.orderId!);
      const waits = state?.waits ?? [];
      if (waits.some((w) => w.kind === 'approval' && w.node === 'trust_review')) {
        if (plan.review === 'none') this.stats.unexpectedReviews.push(plan.orderId!);
        const decision = plan.review === 'none' ? 'approved' : plan.review;
        if (decision !== 'silent') {
          const reply = await this.send('POST', `/api/v1/orders/${plan.orderId}/approvals/trust_review`, { decision });
          if (reply.status !== 200 && reply.status !== 409) throw new Error(`approval ${plan.key}: ${reply.status} ${reply.text}`);
        }
      }
      if (waits.some((w) => w.kind === 'event' && w.event === 'seller.responded')) {
        for (const sellerId of (state?.pending ?? []) as ThirdParty[]) {
          const decision = plan.sellers[sellerId];
          if (!decision || decision === 'silent') continue;
          const payload = { sellerId, decision, ...(decision === 'rejected' ? { reason: 'Out of stock at the seller' } : {}) };
          const reply = await this.send('POST', `/api/v1/orders/${plan.orderId}/events`, { event: 'seller.responded', payload });
          if (reply.status !== 200) throw new Error(`seller answer ${plan.key}: ${reply.status} ${reply.text}`);
        }
      }
    });
    return open.length;
  }

  /** Moves the test clock to an absolute time (a retry after an unknown outcome is harmless). */
  async advance(ms: number): Promise<number> {
    if (this.clockNow === 0) this.clockNow = (await this.send('POST', '/api/v1/test/clock', { advanceMs: 0 })).body.now;
    const target = this.clockNow + ms;
    const reply = await this.send('POST', '/api/v1/test/clock', { now: target });
    if (reply.status === 200) return (this.clockNow = target);
    // 400 only when the clock already stands past the target (an earlier try of this call, or a test, moved it).
    if (reply.status !== 400) throw new Error(`clock: ${reply.status} ${reply.text}`);
    return (this.clockNow = (await this.send('POST', '/api/v1/test/clock', { advanceMs: 0 })).body.now);
  }

  /** Acts and advances the clock a day at a time until every started order finished (bounded). */
  async driveToEnd(maxDays = 40): Promise<void> {
    for (let day = 0; day < maxDays; day++) {
      if ((await this.act()) === 0) return;
      await this.advance(DAY);
    }
    const left = await this.act();
    if (left > 0) throw new Error(`${left} orders did not finish within ${maxDays} days of test clock`);
  }
}
