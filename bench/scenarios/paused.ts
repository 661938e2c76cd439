// Scenario `paused`: many marketplace orders waiting on their sellers cost rows, not memory: RSS of the
// service before and after, live actors (must be 0), PostgreSQL bytes per waiting order, and the time to
// deliver one event to a random paused order.
import { row, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { closedLoop } from '../load-pool.js';
import { BenchClient } from '../http-client.js';
import { LatencyRecorder } from '../latency-recorder.js';
import { marketplaceOrderBody, orderLines, sellerAccepts } from '../marketplace-order.js';
import { startService } from '../service-process.js';
import type { ScenarioContext } from '../scenario-context.js';
import { collectGarbage, inspectorUrl } from '../inspector-gc.js';
import { round } from './marketplace.js';
import { bytesGrowth, compactDatabase, databaseBytes } from '../pg-bytes.js';

const MB = 1024 * 1024;
/** Orders created before the "before" measurement (JIT, pools, compiled machine). */
const WARMUP_ORDERS = 500;
/** Events delivered to random paused orders. */
const EVENTS = 1_000;
/** The target: table + index bytes per waiting marketplace order. */
const BYTES_TARGET = 3 * 1024;

interface RuntimeStats {
  liveOrders: number;
  memory: { rss: number; heapUsed: number };
}

/** Lets the service settle (timers, GC of the last requests' garbage) before reading its memory. */
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function pausedScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const total = options.paused;
  const db = await ctx.stack.createDatabase('paused');
  const service = await startService({
    databaseUrl: db.serviceUrl,
    redisUrl: ctx.stack.redisUrl,
    workspaceFile: writeBenchWorkspace({ skus: options.skus }),
    password: ctx.password,
    // The inspector lets the bench force a full GC before each reading (no other use; bound to loopback).
    nodeArgs: [...options.serviceNodeArgs, '--inspect=127.0.0.1:0'],
  });
  const inspector = inspectorUrl(service.output());
  /** Memory after a full GC (retained memory), or as it stands when the inspector is not there. */
  const memory = async (): Promise<{ rss: number; stats: RuntimeStats }> => {
    if (inspector) await collectGarbage(inspector);
    await settle(500);
    return { rss: service.rss(), stats: await client.expect<RuntimeStats>(200, 'GET', '/api/v1/runtime/stats') };
  };
  const client = await BenchClient.withApiToken(service.url, ctx.password, options.concurrency * 2);
  const problems: string[] = [];
  // Warm-up orders are numbered -1, -2, … (external ids `paused--1`, …) but order the same lines as the measured ones
  // (a negative number made SKUs the catalogue does not have, and the warm-up ran only the failure path).
  const start = async (n: number): Promise<string> =>
    (await client.expect<{ orderId: string }>(201, 'POST', '/api/v1/orders', marketplaceOrderBody(`paused-${n}`, orderLines(Math.abs(n), options.skus)))).orderId;
  try {
    await closedLoop(WARMUP_ORDERS, options.concurrency, async (i) => void (await start(-1 - i)));
    await settle(2_000);
    // Compact first, so that both byte readings below start from live rows only (the warm-up's dead versions gone).
    await compactDatabase(db.pool);
    const bytes0 = await databaseBytes(db.pool);
    const before = await memory();

    const ids: string[] = new Array(total);
    const p = ctx.progress(`paused: ${total} orders waiting on sellers`, total);
    // RSS along the way: a slope over many points says more than two readings a GC apart.
    const samples: { orders: number; rss: number }[] = [{ orders: 0, rss: before.rss }];
    const every = Math.max(1, Math.floor(total / 20));
    const t0 = performance.now();
    await closedLoop(total, options.concurrency, async (i) => {
      ids[i] = await start(i);
    }, (done) => {
      p.update(done);
      if (done % every === 0) samples.push({ orders: done, rss: service.rss() });
    });
    const createSeconds = (performance.now() - t0) / 1000;
    p.done();
    await settle(2_000);
    const after = await memory();
    // Before the events below: what the waiting orders cost on disk, and nothing else. As written (dead row
    // versions of the updates included, until a vacuum lets their space be reused), then live (compacted).
    const written = bytesGrowth(bytes0, await databaseBytes(db.pool), total);
    await compactDatabase(db.pool);
    const bytes = bytesGrowth(bytes0, await databaseBytes(db.pool), total);
    const { rows } = await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE status = 'waiting' AND external_id LIKE 'paused-%' AND external_id NOT LIKE 'paused--%'`);
    const waiting = Number(rows[0].n);
    if (waiting !== total) problems.push(`${waiting} of ${total} orders waiting`);
    if (after.stats.liveOrders !== 0) problems.push(`${after.stats.liveOrders} live orders held in memory while idle`);

    // One event at a time to a random paused order: the first seller accepts; the order records it and waits again.
    const event = new LatencyRecorder();
    const count = Math.min(EVENTS, total);
    const picked = new Set<number>();
    while (picked.size < count) picked.add(Math.floor(Math.random() * total));
    for (const i of picked) {
      const res = await event.time(() => client.expect<{ delivered: boolean }>(200, 'POST', `/api/v1/orders/${ids[i]}/events`, sellerAccepts('seller_acme')));
      if (!res.delivered) problems.push(`event to paused order ${ids[i]} not delivered`);
    }
    const final = await client.expect<RuntimeStats>(200, 'GET', '/api/v1/runtime/stats');

    const growth = after.rss - before.rss;
    samples.push({ orders: total, rss: after.rss });
    const slope = leastSquaresSlope(samples.map((x) => [x.orders, x.rss]));
    const e = event.summary();
    const data = {
      orders: total,
      createSeconds,
      createPerSecond: total / createSeconds,
      rssBefore: before.rss,
      rssAfter: after.rss,
      rssGrowth: growth,
      heapBefore: before.stats.memory.heapUsed,
      heapAfter: after.stats.memory.heapUsed,
      rssPer10kOrders: (growth / total) * 10_000,
      rssSlopePer10kOrders: slope * 10_000,
      rssSamples: samples,
      liveOrders: after.stats.liveOrders,
      liveOrdersAfterEvents: final.liveOrders,
      bytesPerWaitingOrder: bytes.perUnit,
      tableBytesPerWaitingOrder: bytes.tablePerUnit,
      indexBytesPerWaitingOrder: bytes.indexPerUnit,
      bytesByTable: bytes.byTable,
      writtenBytesPerWaitingOrder: written.perUnit,
      writtenBytesByTable: written.byTable,
      event: e,
    };
    // The target is for 100,000 orders; a smaller run reports its growth without a verdict.
    const full = total >= 100_000;
    return {
      scenario: 'paused',
      setup:
        `${total} marketplace orders waiting on two sellers (created at concurrency ${options.concurrency}); memory read after a full GC ` +
        `(${inspector ? 'forced through the inspector' : 'not forced: no inspector'}); ${EVENTS} events one at a time to random ones`,
      rows: [
        row('orders waiting', waiting, undefined, String(total), waiting === total),
        row('RSS before / after', `${round(before.rss / MB, 1)} / ${round(after.rss / MB, 1)}`, 'MB'),
        row('RSS growth', round(growth / MB, 1), 'MB', full ? '< 50 MB' : '< 50 MB at 100,000', full ? growth < 50 * MB : undefined),
        row('RSS per 10,000 waiting orders (after - before / trend over 20 samples)', `${round(data.rssPer10kOrders / MB, 2)} / ${round(data.rssSlopePer10kOrders / MB, 2)}`, 'MB'),
        row('heap used after GC, before / after', `${round(before.stats.memory.heapUsed / MB, 1)} / ${round(after.stats.memory.heapUsed / MB, 1)}`, 'MB'),
        row(
          'PostgreSQL bytes per waiting order as written (table / index)',
          `${Math.round(written.perUnit)} (${Math.round(written.tablePerUnit)} / ${Math.round(written.indexPerUnit)})`,
          'B',
        ),
        row(
          'PostgreSQL bytes per waiting order, live (after VACUUM FULL; table / index)',
          `${Math.round(bytes.perUnit)} (${Math.round(bytes.tablePerUnit)} / ${Math.round(bytes.indexPerUnit)})`,
          'B',
          '<= 3 KB',
          bytes.perUnit <= BYTES_TARGET,
        ),
        row('live actors while idle', after.stats.liveOrders, undefined, '0', after.stats.liveOrders === 0),
        row('event to a random paused order p50/p99', `${e.p50} / ${e.p99}`, 'ms', 'p99 < 20 ms', e.p99 < 20),
        row('orders created/s (POST /orders only)', round(data.createPerSecond, 1), 'orders/s'),
      ],
      data,
      problems,
    };
  } finally {
    client.close();
    await service.stop();
    await db.drop();
  }
}

/** Slope of the least-squares line through the points (y per x). */
function leastSquaresSlope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}
