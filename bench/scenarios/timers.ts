// Scenario `timers`: waits due at a steady rate, fired by the real scheduler (Redis index and in-process heap):
// lateness from due time to firing, p50/p99; and the time to drain many timers due in the same instant.
import { row, type ResultRow, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { closedLoop } from '../load-pool.js';
import { BenchClient } from '../http-client.js';
import { summarise, type LatencySummary } from '../latency-recorder.js';
import { startService } from '../service-process.js';
import { publishTimerFlow, timerOrderBody } from '../timer-flow.js';
import { waitFor, type ScenarioContext } from '../scenario-context.js';
import type { BenchDatabase } from '../bench-stack.js';
import { round } from './marketplace.js';

/** Orders created to measure the creation rate (and warm up); their timers fire at once. */
const PROBE_ORDERS = 200;

interface TimerOutcome {
  timers: number;
  fired: number;
  lateness: LatencySummary;
  /** First due to last due (the schedule as recorded). */
  dueSpreadMs: number;
  /** First due to last fired. */
  drainMs: number;
  /** How long after the first timer was due creation went on (0 = creation finished before). */
  creationOverlapMs: number;
  createPerSecond: number;
}

/** Lateness (fired_at - due_at) of the timers of orders `prefix*`, from PostgreSQL. */
async function measure(db: BenchDatabase, prefix: string): Promise<{ fired: number; lateness: number[]; firstDue: number; lastDue: number; lastFired: number }> {
  const { rows } = await db.pool.query<{ due_at: string; fired_at: string | null }>(
    `SELECT t.due_at, t.fired_at FROM timers t JOIN orders o ON o.id = t.order_id WHERE o.external_id LIKE $1 AND t.kind = 'wait.timeout'`,
    [`${prefix}%`],
  );
  const fired = rows.filter((r) => r.fired_at !== null);
  const due = rows.map((r) => Number(r.due_at));
  return {
    fired: fired.length,
    lateness: fired.map((r) => Number(r.fired_at) - Number(r.due_at)),
    firstDue: Math.min(...due),
    lastDue: Math.max(...due),
    lastFired: Math.max(...fired.map((r) => Number(r.fired_at))),
  };
}

/**
 * Creates `count` orders whose timers fall due from `lead` ms after creation ends at
 * `perSecond` (Infinity = all at the same instant), waits for every one to fire, and measures.
 */
async function runTimers(ctx: ScenarioContext, client: BenchClient, db: BenchDatabase, prefix: string, count: number, perSecond: number, createRate: number, label: string): Promise<TimerOutcome> {
  // Due times start after the expected creation time (creation at the measured rate, with margin).
  const lead = Math.max(5_000, (count / createRate) * 1_300 + 3_000);
  const firstDue = Date.now() + lead;
  const dueOf = (i: number) => (Number.isFinite(perSecond) ? firstDue + Math.floor((i * 1000) / perSecond) : firstDue);
  const p = ctx.progress(`${label}: creating ${count} timers`, count);
  const t0 = Date.now();
  await closedLoop(count, ctx.options.concurrency, async (i) => {
    await client.expect(201, 'POST', '/api/v1/orders', timerOrderBody(i, prefix, dueOf(i)));
  }, (done) => p.update(done));
  const created = Date.now();
  p.done();
  const lastDue = dueOf(count - 1);
  ctx.log(`${label}: waiting for ${count} timers due over ${round((lastDue - firstDue) / 1000, 1)} s (first in ${round((firstDue - created) / 1000, 1)} s)`);
  await waitFor(async () => (await measure(db, prefix)).fired >= count, Math.max(0, lastDue - Date.now()) + 120_000, 500);
  const m = await measure(db, prefix);
  return {
    timers: count,
    fired: m.fired,
    lateness: summarise(m.lateness),
    dueSpreadMs: m.lastDue - m.firstDue,
    drainMs: m.lastFired - m.firstDue,
    creationOverlapMs: Math.max(0, created - m.firstDue),
    createPerSecond: (count * 1000) / Math.max(1, created - t0),
  };
}

async function oneScheduler(ctx: ScenarioContext, redis: boolean): Promise<{ steady: TimerOutcome; drain: TimerOutcome | null }> {
  const { options } = ctx;
  const db = await ctx.stack.createDatabase(`timers_${redis ? 'redis' : 'memory'}`);
  const service = await startService({
    databaseUrl: db.serviceUrl,
    redisUrl: redis ? ctx.stack.redisUrl : null,
    workspaceFile: writeBenchWorkspace({ skus: 1 }),
    password: ctx.password,
    nodeArgs: options.serviceNodeArgs,
  });
  const client = await BenchClient.withApiToken(service.url, ctx.password, options.concurrency * 2);
  const label = `timers (${redis ? 'Redis' : 'in-process'})`;
  try {
    await publishTimerFlow(client);
    // Probe: how fast can orders be created (timers due at once, so they also warm up the fire path).
    const t0 = Date.now();
    await closedLoop(PROBE_ORDERS, options.concurrency, async (i) => {
      await client.expect(201, 'POST', '/api/v1/orders', timerOrderBody(i, 'probe-', 0));
    });
    const createRate = (PROBE_ORDERS * 1000) / (Date.now() - t0);
    await waitFor(async () => (await measure(db, 'probe-')).fired >= PROBE_ORDERS, 60_000, 200);
    const steady = await runTimers(ctx, client, db, 'steady-', Math.round(options.timerRate * options.timerSeconds), options.timerRate, createRate, label);
    // The steady phase measured the creation rate over thousands of orders: a better lead for the drain.
    const drain = options.drain > 0 ? await runTimers(ctx, client, db, 'drain-', options.drain, Infinity, steady.createPerSecond, `${label} drain`) : null;
    return { steady, drain };
  } finally {
    client.close();
    await service.stop();
    await db.drop();
  }
}

export async function timersScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const problems: string[] = [];
  const runs: { name: string; steady: TimerOutcome; drain: TimerOutcome | null }[] = [];
  if (ctx.stack.redisUrl) runs.push({ name: 'Redis', ...(await oneScheduler(ctx, true)) });
  runs.push({ name: 'in-process', ...(await oneScheduler(ctx, false)) });
  const rows: ResultRow[] = [];
  if (!ctx.stack.redisUrl) rows.push(row('Redis scheduler', 'skipped (no REDIS_URL / TEST_REDIS_URL)'));
  for (const r of runs) {
    for (const o of [r.steady, r.drain]) if (o && o.fired !== o.timers) problems.push(`${r.name}: ${o.fired} of ${o.timers} timers fired`);
    const s = r.steady;
    rows.push(
      row(`${r.name}: lateness p50/p99 at ${options.timerRate}/s for ${options.timerSeconds} s`, `${s.lateness.p50} / ${s.lateness.p99}`, 'ms', 'p99 < 500 ms', s.lateness.p99 < 500),
      row(`${r.name}: timers fired`, `${s.fired}/${s.timers}`, undefined, 'all', s.fired === s.timers),
    );
    if (r.drain)
      rows.push(
        row(`${r.name}: drain ${r.drain.timers} due at once`, round(r.drain.drainMs / 1000, 2), 's'),
        row(`${r.name}:   drain rate / lateness p99`, `${round((r.drain.fired * 1000) / Math.max(1, r.drain.drainMs), 0)}/s / ${r.drain.lateness.p99} ms`),
      );
  }
  return {
    scenario: 'timers',
    setup: `orders with one wait.delay each, due ${options.timerRate}/s for ${options.timerSeconds} s, then ${options.drain} due at once; fired by the scheduler on the real clock`,
    rows,
    data: { runs },
    problems,
  };
}
