// Scenario `two-nodes`: two service processes on one PostgreSQL and Redis with the load split between them
// (each request to either node, both sellers answering at once on different nodes, payout timers fired by
// whichever scheduler claims them): every order completes exactly once; throughput two nodes / one node.
import { row, skipped, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { closedLoop } from '../load-pool.js';
import { BenchClient } from '../http-client.js';
import { LatencyRecorder } from '../latency-recorder.js';
import { driveMarketplaceOrder } from '../drive-order.js';
import { checkMarketplaceOrders, readStock, type MarketplaceCheck } from '../marketplace-checks.js';
import { startService, type ServiceProcess } from '../service-process.js';
import { waitFor, type ScenarioContext } from '../scenario-context.js';
import { round } from './marketplace.js';

const WARMUP_ORDERS = 50;

interface NodesRun {
  nodes: number;
  orders: number;
  seconds: number;
  ordersPerSecond: number;
  check: MarketplaceCheck;
  /** Orders each node started (POST /orders), to show the split. */
  startedPerNode: number[];
}

async function completed(pool: import('pg').Pool, prefix: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE external_id LIKE $1 AND status = 'completed'`, [`${prefix}%`]);
  return Number(rows[0].n);
}

/** Runs the marketplace load on `nodes` services sharing one database (return window 0: the schedulers fire the payouts). */
async function runNodes(ctx: ScenarioContext, nodes: number): Promise<NodesRun> {
  const { options } = ctx;
  const db = await ctx.stack.createDatabase(`nodes${nodes}`);
  const workspaceFile = writeBenchWorkspace({ skus: options.skus, returnWindowDays: 0 });
  const services: ServiceProcess[] = [];
  const clients: BenchClient[] = [];
  try {
    // One at a time: the first runs the migrations and publishes the built-in flows.
    for (let i = 0; i < nodes; i++) {
      const s = await startService({
        databaseUrl: db.serviceUrl,
        redisUrl: ctx.stack.redisUrl,
        workspaceFile,
        password: ctx.password,
        nodeArgs: options.serviceNodeArgs,
        label: `node ${String.fromCharCode(65 + i)}`,
      });
      services.push(s);
      clients.push(await BenchClient.withApiToken(s.url, ctx.password, options.concurrency * 2));
    }
    const startedPerNode = clients.map(() => 0);
    const pick = (requestNo: number) => {
      const i = Math.floor(Math.random() * clients.length);
      if (requestNo === 0) startedPerNode[i]++;
      return clients[i];
    };
    const rec = { create: new LatencyRecorder(), event: new LatencyRecorder() };
    await closedLoop(WARMUP_ORDERS, options.concurrency, async (i) => {
      await driveMarketplaceOrder(i, 'warm-', rec, { pick, skus: options.skus, tally: new Map(), concurrentEvents: true });
    });
    await waitFor(async () => (await completed(db.pool, 'warm-')) >= WARMUP_ORDERS, 60_000);
    startedPerNode.fill(0);

    const stockBefore = await readStock(db.pool);
    const tally = new Map<string, number>();
    const p = ctx.progress(`two-nodes: ${options.orders} orders on ${nodes} node(s)`, options.orders);
    const t0 = performance.now();
    await closedLoop(options.orders, options.concurrency, async (i) => {
      await driveMarketplaceOrder(i, 'tn-', rec, { pick, skus: options.skus, tally, concurrentEvents: true });
    }, (done) => p.update(done));
    await waitFor(async () => (await completed(db.pool, 'tn-')) >= options.orders, 120_000, 100);
    const seconds = (performance.now() - t0) / 1000;
    p.done();
    // Late duplicates would show up after completion: give the schedulers a sweep period to misbehave.
    await new Promise((r) => setTimeout(r, 6_000));
    const check = await checkMarketplaceOrders(db.pool, 'tn-', options.orders, stockBefore, tally);
    return { nodes, orders: options.orders, seconds, ordersPerSecond: options.orders / seconds, check, startedPerNode };
  } finally {
    for (const c of clients) c.close();
    for (const s of services) await s.stop();
    await db.drop();
  }
}

export async function twoNodesScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  if (!ctx.stack.redisUrl) return skipped('two-nodes', 'needs Redis (REDIS_URL or TEST_REDIS_URL)');
  const one = await runNodes(ctx, 1);
  const two = await runNodes(ctx, 2);
  const problems = [...one.check.problems.map((m) => `one node: ${m}`), ...two.check.problems.map((m) => `two nodes: ${m}`)];
  const dupes = new Set(two.check.duplicates.map((d) => d.orderId)).size;
  const ratio = two.ordersPerSecond / one.ordersPerSecond;
  return {
    scenario: 'two-nodes',
    setup:
      `${ctx.options.orders} marketplace orders, concurrency ${ctx.options.concurrency}, return window 0 days (payout timers fired by the schedulers ` +
      `through Redis); each request to a random node, both seller answers at once`,
    rows: [
      row('one node', round(one.ordersPerSecond, 1), 'orders/s'),
      row(`two nodes (started ${two.startedPerNode.join(' / ')})`, round(two.ordersPerSecond, 1), 'orders/s'),
      row('throughput two / one', round(ratio, 2)),
      row('orders completed (two nodes)', `${two.check.completed}/${two.orders}`, undefined, 'all', two.check.completed === two.orders),
      row('orders with duplicate or missing effects', dupes, undefined, '0', dupes === 0 && two.check.stock.length === 0),
    ],
    data: {
      one: { ...one, check: { ...one.check, duplicates: one.check.duplicates.slice(0, 20) } },
      two: { ...two, check: { ...two.check, duplicates: two.check.duplicates.slice(0, 20) } },
      ratio,
    },
    problems,
  };
}
