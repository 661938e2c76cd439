// Lets timers come due in real time (not fired by the clock route) so the scheduler's own loop must fire them.
import type { DbProbe } from './db-probe.js';
import type { MarketplaceDriver } from './marketplace-load.js';

export interface RealTimeFiring {
  /** Timers that came due in the window and fired. */
  fired: number;
  /** Service-clock ms from due to fired: the slowest one. */
  worstLagMs: number;
}

/**
 * Moves the test clock to just before the earliest pending wait timeout of `orderIds`, then waits
 * (real time, bounded) until every such timer due within the next `windowMs` has fired. The clock
 * route fires only what is due up to its target, so these are fired by the scheduler.
 */
export async function fireNextTimersInRealTime(db: DbProbe, driver: MarketplaceDriver, orderIds: string[], windowMs = 3_000, patienceMs = 30_000): Promise<RealTimeFiring> {
  const [first] = await db<{ due: string | null }>(
    "SELECT min(due_at) AS due FROM timers WHERE order_id = ANY($1) AND kind = 'wait.timeout' AND fired_at IS NULL AND cancelled_at IS NULL",
    [orderIds],
  );
  if (first.due === null) throw new Error('no pending wait timeout to fire');
  const due = Number(first.due);
  // Moved only when that timer is not (nearly) due already; the clock route never fires it either way.
  const now = (await driver.send('POST', '/api/v1/test/clock', { advanceMs: 0 })).body.now as number;
  if (due - 300 > now) {
    const reply = await driver.send('POST', '/api/v1/test/clock', { now: due - 300 });
    if (reply.status !== 200) throw new Error(`clock: ${reply.status} ${reply.text}`);
  }
  const end = due + windowMs;
  const deadline = Date.now() + patienceMs;
  for (;;) {
    const [row] = await db<{ pending: number; fired: number; lag: string | null }>(
      `SELECT count(*) FILTER (WHERE fired_at IS NULL AND cancelled_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE fired_at IS NOT NULL)::int AS fired,
              max(fired_at - due_at) FILTER (WHERE fired_at IS NOT NULL) AS lag
         FROM timers WHERE order_id = ANY($1) AND kind = 'wait.timeout' AND due_at BETWEEN $2 AND $3`,
      [orderIds, due, end],
    );
    if (row.pending === 0) return { fired: row.fired, worstLagMs: Number(row.lag ?? 0) };
    if (Date.now() > deadline) throw new Error(`${row.pending} timers due in real time did not fire within ${patienceMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Every timer fired at most once, observably: each timed-out wait has exactly one `wait.timeout`
 * timeline entry (delays have none), and each fired wait timer closed exactly the wait it guards.
 */
export async function timerViolations(db: DbProbe, orderIds: string[]): Promise<string[]> {
  const out: string[] = [];
  const rows = await db<{ order_id: string; timeouts: number; notes: number }>(
    `SELECT o.id AS order_id,
            (SELECT count(*)::int FROM order_waits w WHERE w.order_id = o.id AND w.status IN ('timeout', 'escalated')) AS timeouts,
            (SELECT count(*)::int FROM order_timeline t WHERE t.order_id = o.id AND t.kind = 'wait.timeout') AS notes
       FROM orders o WHERE o.id = ANY($1)`,
    [orderIds],
  );
  for (const r of rows) if (r.timeouts !== r.notes) out.push(`${r.order_id}: ${r.timeouts} timed-out waits but ${r.notes} timeout entries`);
  const orphans = await db<{ id: string; status: string | null }>(
    `SELECT t.id, w.status FROM timers t LEFT JOIN order_waits w ON w.timer_id = t.id
      WHERE t.order_id = ANY($1) AND t.kind = 'wait.timeout' AND t.fired_at IS NOT NULL
        AND (w.status IS NULL OR w.status NOT IN ('timeout', 'escalated', 'elapsed'))`,
    [orderIds],
  );
  for (const o of orphans) out.push(`timer ${o.id} fired but its wait is ${o.status ?? 'missing'}`);
  const pending = await db<{ n: number }>(
    'SELECT count(*)::int AS n FROM timers WHERE order_id = ANY($1) AND fired_at IS NULL AND cancelled_at IS NULL',
    [orderIds],
  );
  if (pending[0].n) out.push(`${pending[0].n} timers of finished orders still pending`);
  return out;
}
