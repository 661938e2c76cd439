// Scenario `marketplace`: orders/s, writing transactions per order, and p50/p99 of POST /orders and of event
// delivery, for tpl-marketplace-order driven over HTTP (two sellers accept, the test clock passes the return window).
import { row, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { closedLoop, openLoop } from '../load-pool.js';
import { startCpuBurner } from '../cpu-burner.js';
import { BenchClient } from '../http-client.js';
import { LatencyRecorder } from '../latency-recorder.js';
import { driveMarketplaceOrder } from '../drive-order.js';
import { checkMarketplaceOrders, readStock } from '../marketplace-checks.js';
import { startService } from '../service-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { enableStatementStats, resetStatementStats, statementTotals, topStatements } from '../pg-statements.js';
import { backgroundXidRate, currentXid, writingSince } from '../xact-probe.js';
import { DAY_MS, waitFor, type ScenarioContext } from '../scenario-context.js';
import { CpuMeter, findPostmaster, type CpuSample } from '../cpu-meter.js';
import { bytesGrowth, databaseBytes } from '../pg-bytes.js';
import { runRepeated, type RepeatableScenario, type RunMeasure, type RunsSummary } from '../repeat-runs.js';
import os from 'node:os';

/** Orders run first to warm up (JIT, compiled-machine cache, pools); not measured. */
const WARMUP_ORDERS = 50;
/** Advance past the 14-day return window. */
const ADVANCE_MS = 15 * DAY_MS;

export interface MarketplaceNumbers {
  orders: number;
  concurrency: number;
  seconds: number;
  ordersPerSecond: number;
  /** Writing transactions per order over the whole life of the order (start, events, timer, outbox). */
  writingTxPerOrder: number;
  /** Of which: while creating orders and delivering events / while the clock fired the return windows. */
  writingTxPerOrderLoad: number;
  writingTxPerOrderClock: number;
  /** Transaction ids other clients consumed per second while the bench was idle (a shared server). */
  backgroundXidPerSecond: number;
  loadSeconds: number;
  clockSeconds: number;
  closedLoop: { create: ReturnType<LatencyRecorder['summary']>; event: ReturnType<LatencyRecorder['summary']> };
  openLoop: OpenLoopNumbers;
  /** The same open loop again while a second process keeps one core busy (startCpuBurner): production machines are never quiet. */
  openLoopBusy: OpenLoopNumbers;
  /** CPU per order (ms): the service, PostgreSQL (embedded server only: a shared one serves others too), the load generator. */
  cpuPerOrder: CpuSample;
  /** Orders/s this machine's cores could complete if CPU were the only limit: cores x 1000 / CPU ms per order. */
  cpuBoundOrdersPerSecond: number | null;
  /** SQL statements the service sent per order, and PostgreSQL's execution and planning time for them (pg_stat_statements; null when unavailable). */
  statementsPerOrder: number | null;
  /** PostgreSQL's own foreign-key checks per order, run at COMMIT (not sent by the service: StatementTotals). */
  foreignKeyChecksPerOrder: number | null;
  statementExecMsPerOrder: number | null;
  statementPlanMsPerOrder: number | null;
  /** Table + index bytes the database grew by over the closed loop and the clock phase, per order. */
  bytesPerOrder: number;
  webhookSubscribers: number;
  webhookDeliveries: number;
  liveOrdersIdle: number;
}

/** One open-loop phase: its rate and the latency of the POSTs and of the events. */
export interface OpenLoopNumbers {
  ordersPerSecond: number;
  requestsPerSecond: number;
  seconds: number;
  create: ReturnType<LatencyRecorder['summary']>;
  event: ReturnType<LatencyRecorder['summary']>;
}

/** Moves the test clock past the return window; every due payout timer fires before it answers. */
async function passReturnWindow(client: BenchClient): Promise<void> {
  await client.expect(200, 'POST', '/api/v1/test/clock', { advanceMs: ADVANCE_MS });
}

/** The marketplace scenario, `--repeat` times (each run on a fresh database and service); the numbers are the medians. */
export async function marketplaceScenario(ctx: ScenarioContext): Promise<ScenarioResult & { numbers: MarketplaceNumbers }> {
  const scenario: RepeatableScenario<MarketplaceNumbers> = {
    name: 'marketplace',
    measure: () => measureMarketplace(ctx),
    report: (numbers, summary) => reportMarketplace(ctx, numbers, summary),
  };
  return runRepeated(ctx, scenario, ctx.options.repeat);
}

/** One run: warm-up, closed loop, clock, open loop, checks. */
async function measureMarketplace(ctx: ScenarioContext): Promise<RunMeasure<MarketplaceNumbers>> {
  const { options } = ctx;
  const db = await ctx.stack.createDatabase('marketplace');
  const workspaceFile = writeBenchWorkspace({ skus: options.skus });
  const statements = await enableStatementStats(db.pool);
  let receiver: WebhookReceiver | null = null;
  if (options.webhooks > 0) receiver = await startWebhookReceiver();
  const service = await startService({
    databaseUrl: db.serviceUrl,
    redisUrl: ctx.stack.redisUrl,
    workspaceFile,
    password: ctx.password,
    testClock: true,
    nodeArgs: options.serviceNodeArgs,
    env: receiver ? { OUTBOUND_ALLOW_LOOPBACK: '1' } : {},
  });
  const client = await BenchClient.withApiToken(service.url, ctx.password, Math.max(options.concurrency, 64) * 2);
  const problems: string[] = [];
  try {
    for (let i = 0; i < options.webhooks; i++)
      await client.expect(201, 'POST', '/api/v1/webhook-subscriptions', { url: receiver!.url, events: ['*'] });

    // Warm-up: a few complete orders, not measured.
    const warm = { create: new LatencyRecorder(), event: new LatencyRecorder() };
    const drive = { pick: () => client, skus: options.skus };
    await closedLoop(Math.min(WARMUP_ORDERS, Math.max(1, options.orders)), options.concurrency, async (i) => {
      await driveMarketplaceOrder(i, 'warm-', warm, { ...drive, tally: new Map() });
    });
    await passReturnWindow(client);

    // Closed loop: N orders, C requests in flight; then one clock advance completes them all.
    const stockBefore = await readStock(db.pool);
    const background = await backgroundXidRate(db.pool, 1_000);
    const closed = { create: new LatencyRecorder(), event: new LatencyRecorder() };
    const tally = new Map<string, number>();
    if (statements) await resetStatementStats(db.pool);
    const bytes0 = await databaseBytes(db.pool);
    const p = ctx.progress(`marketplace: ${options.orders} orders, concurrency ${options.concurrency}`, options.orders);
    const meter = new CpuMeter([service.pid], ctx.stack.kind === 'embedded' ? await findPostmaster(db.pool) : null);
    const cpu0 = meter.sample();
    const x0 = await currentXid(db.pool);
    const t0 = performance.now();
    await closedLoop(options.orders, options.concurrency, async (i) => {
      await driveMarketplaceOrder(i, 'tp-', closed, { ...drive, tally });
    }, (done) => p.update(done));
    const t1 = performance.now();
    const xLoad = await writingSince(db.pool, x0);
    const x1 = await currentXid(db.pool);
    await passReturnWindow(client);
    const t2 = performance.now();
    const xClock = await writingSince(db.pool, x1);
    const cpuPerOrder = CpuMeter.per(cpu0, meter.sample(), options.orders);
    const cpuTotal = cpuPerOrder.postgresMs === null ? null : cpuPerOrder.serviceMs + cpuPerOrder.postgresMs + cpuPerOrder.benchMs;
    p.done(`+ return windows in ${((t2 - t1) / 1000).toFixed(1)} s`);
    // One writing probe ran between the two counts (x1's own transaction).
    const writing = xLoad + 1 + xClock;
    const profile = statements ? await topStatements(db.pool, 200) : null;
    const totals = statements ? await statementTotals(db.pool) : null;
    const growth = bytesGrowth(bytes0, await databaseBytes(db.pool), options.orders);
    const check = await checkMarketplaceOrders(db.pool, 'tp-', options.orders, stockBefore, tally);
    problems.push(...check.problems);

    // Open loop: R requests/s for S seconds: R/3 orders/s, each POST followed by its two seller answers; then the
    // same again while a second process keeps one core busy.
    const orderRate = options.rate / 3;
    const latOrders = Math.max(1, Math.round(orderRate * options.rateSeconds));
    const openLoopPhase = async (prefix: string, label: string): Promise<{ numbers: OpenLoopNumbers; check: Awaited<ReturnType<typeof checkMarketplaceOrders>> }> => {
      const latency = { create: new LatencyRecorder(), event: new LatencyRecorder() };
      const stockBeforeOpen = await readStock(db.pool);
      const tallyOpen = new Map<string, number>();
      const pl = ctx.progress(`marketplace latency${label}: ${options.rate} requests/s (${round(orderRate, 1)} orders/s)`, latOrders);
      const tl0 = performance.now();
      await openLoop(latOrders, orderRate, async (i) => {
        await driveMarketplaceOrder(i, prefix, latency, { ...drive, tally: tallyOpen });
      }, (done) => pl.update(done));
      const seconds = (performance.now() - tl0) / 1000;
      pl.done();
      await passReturnWindow(client);
      const check = await checkMarketplaceOrders(db.pool, prefix, latOrders, stockBeforeOpen, tallyOpen);
      return { numbers: { ordersPerSecond: orderRate, requestsPerSecond: options.rate, seconds, create: latency.create.summary(), event: latency.event.summary() }, check };
    };
    const open = await openLoopPhase('lat-', '');
    problems.push(...open.check.problems.map((m) => `open loop: ${m}`));
    const burner = startCpuBurner();
    let busy: Awaited<ReturnType<typeof openLoopPhase>>;
    try {
      busy = await openLoopPhase('busy-', ', one core busy');
    } finally {
      await burner.stop();
    }
    problems.push(...busy.check.problems.map((m) => `open loop, one core busy: ${m}`));

    let deliveries = 0;
    if (receiver) {
      // Every order event reaches every subscription once.
      const { rows } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox');
      const expected = Number(rows[0].n) * options.webhooks;
      await waitFor(async () => receiver!.distinct() >= expected, 120_000);
      deliveries = receiver.distinct();
      if (deliveries !== expected) problems.push(`webhooks: ${deliveries} distinct deliveries, expected ${expected}`);
    }
    const stats = await client.expect<{ liveOrders: number }>(200, 'GET', '/api/v1/runtime/stats');

    const seconds = (t2 - t0) / 1000;
    const numbers: MarketplaceNumbers = {
      orders: options.orders,
      concurrency: options.concurrency,
      seconds,
      ordersPerSecond: options.orders / seconds,
      writingTxPerOrder: writing / options.orders,
      writingTxPerOrderLoad: xLoad / options.orders,
      writingTxPerOrderClock: (xClock + 1) / options.orders,
      backgroundXidPerSecond: background,
      loadSeconds: (t1 - t0) / 1000,
      clockSeconds: (t2 - t1) / 1000,
      closedLoop: { create: closed.create.summary(), event: closed.event.summary() },
      openLoop: open.numbers,
      openLoopBusy: busy.numbers,
      cpuPerOrder,
      cpuBoundOrdersPerSecond: cpuTotal ? (os.availableParallelism() * 1000) / cpuTotal : null,
      statementsPerOrder: totals ? totals.calls / options.orders : null,
      foreignKeyChecksPerOrder: totals ? totals.foreignKeyChecks / options.orders : null,
      statementExecMsPerOrder: totals ? totals.execMs / options.orders : null,
      statementPlanMsPerOrder: totals ? totals.planMs / options.orders : null,
      bytesPerOrder: growth.perUnit,
      webhookSubscribers: options.webhooks,
      webhookDeliveries: deliveries,
      liveOrdersIdle: stats.liveOrders,
    };
    return {
      numbers,
      data: { ...numbers, skus: options.skus, bytesByTable: growth.byTable, statements: profile, check: { ...check, duplicates: check.duplicates.slice(0, 20) }, checkOpen: { ...open.check, duplicates: open.check.duplicates.slice(0, 20) }, checkBusy: { ...busy.check, duplicates: busy.check.duplicates.slice(0, 20) } },
      problems,
      completed: check.completed + open.check.completed + busy.check.completed,
      expected: options.orders + 2 * latOrders,
    };
  } finally {
    client.close();
    await service.stop();
    await receiver?.close();
    await db.drop();
  }
}

/** The table rows of (median) marketplace numbers. */
function reportMarketplace(ctx: ScenarioContext, numbers: MarketplaceNumbers, summary: RunsSummary): Pick<ScenarioResult, 'setup' | 'rows'> {
  const { options } = ctx;
  const { cpuPerOrder } = numbers;
  const orderRate = options.rate / 3;
  const ol = numbers.openLoop;
  return {
    setup:
      `${options.orders} orders over ${options.skus} SKUs per seller, concurrency ${options.concurrency}; latency at ${options.rate} requests/s ` +
      `(${round(orderRate, 1)} orders/s, each POST + 2 events) for ${options.rateSeconds} s, then again with a second process keeping one core busy; ${options.webhooks} webhook subscribers; ` +
      `${ctx.stack.redisUrl ? 'Redis' : 'in-process'} scheduler; ${ctx.stack.kind} PostgreSQL`,
    rows: [
      row('orders completed/s', round(numbers.ordersPerSecond, 1), 'orders/s'),
      row('  of which: create + 2 events', round(options.orders / numbers.loadSeconds, 1), 'orders/s'),
      row('  of which: return windows (test clock, serial)', round(options.orders / numbers.clockSeconds, 1), 'orders/s'),
      row('writing transactions per order', round(numbers.writingTxPerOrder, 2), 'tx', '<= 8', numbers.writingTxPerOrder <= 8),
      row('  of which: create + 2 events / clock', `${round(numbers.writingTxPerOrderLoad, 2)} / ${round(numbers.writingTxPerOrderClock, 2)}`),
      row(
        'CPU per order: service / PostgreSQL / load generator',
        `${round(cpuPerOrder.serviceMs, 2)} / ${cpuPerOrder.postgresMs === null ? 'n/a' : round(cpuPerOrder.postgresMs, 2)} / ${round(cpuPerOrder.benchMs, 2)}`,
        'ms',
      ),
      row('  orders/s if CPU were the only limit', numbers.cpuBoundOrdersPerSecond === null ? 'n/a' : round(numbers.cpuBoundOrdersPerSecond, 1), 'orders/s'),
      row('SQL statements per order', numbers.statementsPerOrder === null ? 'n/a' : round(numbers.statementsPerOrder, 1)),
      row('  and foreign-key checks PostgreSQL ran at COMMIT', numbers.foreignKeyChecksPerOrder === null ? 'n/a' : round(numbers.foreignKeyChecksPerOrder, 1)),
      row(
        '  PostgreSQL execution / planning time per order',
        numbers.statementExecMsPerOrder === null ? 'n/a' : `${round(numbers.statementExecMsPerOrder, 2)} / ${round(numbers.statementPlanMsPerOrder!, 2)}`,
        'ms',
      ),
      row(`POST /orders p50/p99 (closed loop, C=${options.concurrency})`, `${numbers.closedLoop.create.p50} / ${numbers.closedLoop.create.p99}`, 'ms'),
      row(`event delivery p50/p99 (closed loop, C=${options.concurrency})`, `${numbers.closedLoop.event.p50} / ${numbers.closedLoop.event.p99}`, 'ms'),
      row(`POST /orders p50/p99 at ${ol.requestsPerSecond} req/s`, `${ol.create.p50} / ${ol.create.p99}`, 'ms', 'p99 < 25 ms', ol.create.p99 < 25),
      row(`event delivery p50/p99 at ${ol.requestsPerSecond} req/s`, `${ol.event.p50} / ${ol.event.p99}`, 'ms', 'p99 < 25 ms', ol.event.p99 < 25),
      row(`POST /orders p50/p99 at ${ol.requestsPerSecond} req/s, one core busy`, `${numbers.openLoopBusy.create.p50} / ${numbers.openLoopBusy.create.p99}`, 'ms'),
      row(`event delivery p50/p99 at ${ol.requestsPerSecond} req/s, one core busy`, `${numbers.openLoopBusy.event.p50} / ${numbers.openLoopBusy.event.p99}`, 'ms'),
      row('PostgreSQL bytes per order (table + index growth)', Math.round(numbers.bytesPerOrder), 'B'),
      row('webhook subscribers attached', options.webhooks),
      row(`completed exactly once (closed + both open loops${summary.runs > 1 ? `, ${summary.runs} runs` : ''})`, `${summary.completed}/${summary.expected}`, undefined, 'all', summary.ok),
    ],
  };
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
