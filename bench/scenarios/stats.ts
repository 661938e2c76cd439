// Scenario `stats` (contract 17, issue 35): where orders spend their time, with 100,000 orders of one flow version.
// Real marketplace orders are run through the API as templates (some wait for sellers, some accepted into their return
// window, some rejected); then, with the service stopped, --stats-orders copies of them are written straight into the
// tables runs write (orders rows with their node records, timeline chunks), spread over the last 7 days with their
// times stretched by a random factor. The service is started again and its background worker aggregates them from its
// cursor: the CPU that costs per order (service; PostgreSQL too on the embedded server). Then GET /flows/:id/stats
// over the default 7 days is timed: p95 under 500 ms is the target.
import { randomUUID } from 'node:crypto';
import { row, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { BenchClient } from '../http-client.js';
import { LatencyRecorder, summarise } from '../latency-recorder.js';
import { MARKETPLACE_FLOW, marketplaceOrderBody, DEMO_LINES } from '../marketplace-order.js';
import { startService, type ServiceProcess } from '../service-process.js';
import { waitFor, DAY_MS, type ScenarioContext } from '../scenario-context.js';
import { CpuMeter, findPostmaster } from '../cpu-meter.js';
import type { BenchDatabase } from '../bench-stack.js';
import { round } from './marketplace.js';

/** Template orders run through the API (each clone copies one). */
const TEMPLATES = 24;
/** Orders written per statement while seeding. */
const BATCH = 1_000;
/** Stats requests timed. */
const REQUESTS = 200;
const TARGET_MS = 500;
const HOUR = 3_600_000;

interface StoredEntry {
  at: number;
  [k: string]: unknown;
}

interface Template {
  id: string;
  createdAt: number;
  nodes: Record<string, { startedAt?: number; endedAt?: number; [k: string]: unknown }>;
  chunks: StoredEntry[][];
}

/** Drives the templates: a third wait for their sellers, a third both accept (return window), a third Acme rejects. */
async function runTemplates(client: BenchClient): Promise<void> {
  for (let i = 0; i < TEMPLATES; i++) {
    const { orderId } = await client.expect<{ orderId: string }>(201, 'POST', '/api/v1/orders', marketplaceOrderBody(`stats-template-${i}`, DEMO_LINES.map((l) => ({ ...l }))));
    if (i % 3 === 0) continue;
    const answers = i % 3 === 1 ? [['seller_acme', 'accepted'], ['seller_bolt', 'accepted']] : [['seller_bolt', 'accepted'], ['seller_acme', 'rejected']];
    for (const [sellerId, decision] of answers)
      await client.expect(200, 'POST', `/api/v1/orders/${orderId}/events`, { event: 'seller.responded', payload: { sellerId, decision, ...(decision === 'rejected' ? { reason: 'Out of stock' } : {}) } });
  }
}

async function readTemplates(db: BenchDatabase): Promise<Template[]> {
  const { rows } = await db.pool.query<{ id: string; created_at: string; nodes: Template['nodes']; chunks: StoredEntry[][] }>(
    `SELECT o.id, o.created_at, o.nodes, (SELECT json_agg(c.entries ORDER BY c.id) FROM order_timeline_chunks c WHERE c.order_id = o.id) AS chunks
       FROM orders o WHERE o.external_id LIKE 'stats-template-%' ORDER BY o.external_id`,
  );
  return rows.map((r) => ({ id: r.id, createdAt: Number(r.created_at), nodes: r.nodes, chunks: r.chunks ?? [] }));
}

/** `orders` columns as written (generated columns left out), for a copy that replaces some of them. */
async function orderColumns(db: BenchDatabase): Promise<string[]> {
  const { rows } = await db.pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'orders' AND table_schema = current_schema() AND is_generated = 'NEVER' ORDER BY ordinal_position`,
  );
  return rows.map((r) => r.column_name);
}

/**
 * Writes `count` copies of the templates: each a new order created at a random time of the last 7 days (an hour
 * back from now at least), every time of its node records and entries stretched by a factor from 1 to 10,000
 * (log-uniform), so durations spread over milliseconds to minutes.
 */
async function seedCopies(db: BenchDatabase, templates: Template[], count: number, now: number, progress: (n: number) => void): Promise<void> {
  const columns = await orderColumns(db);
  const replaced: Record<string, string> = { id: 'x.id', external_id: 'NULL', instance_id: 'x.instance_id', created_at: 'x.created_at', updated_at: 'x.created_at', nodes: 'x.nodes' };
  const select = columns.map((c) => replaced[c] ?? `t.${c}`).join(', ');
  const insertOrders = `INSERT INTO orders (${columns.join(', ')})
    SELECT ${select} FROM json_to_recordset($1::json) AS x(id text, tpl text, instance_id text, created_at bigint, nodes json) JOIN orders t ON t.id = x.tpl`;
  const insertChunks = `INSERT INTO order_timeline_chunks (order_id, entries) SELECT x.order_id, x.entries FROM json_to_recordset($1::json) AS x(order_id text, entries json)`;
  // Creation times in order, so the worker meets them roughly hour by hour as a live system would.
  const span = 7 * DAY_MS - 2 * HOUR;
  const times = Array.from({ length: count }, () => now - HOUR - Math.floor(Math.random() * span)).sort((a, b) => a - b);
  for (let done = 0; done < count; done += BATCH) {
    const orders: Record<string, unknown>[] = [];
    const chunks: Record<string, unknown>[] = [];
    for (let i = done; i < Math.min(count, done + BATCH); i++) {
      const tpl = templates[i % templates.length];
      const id = `ord_stats${String(i).padStart(8, '0')}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const createdAt = times[i];
      const factor = 10 ** (Math.random() * 4);
      const at = (t: number) => Math.round(createdAt + (t - tpl.createdAt) * factor);
      const nodes = Object.fromEntries(
        Object.entries(tpl.nodes).map(([nodeId, r]) => [nodeId, { ...r, ...(r.startedAt !== undefined ? { startedAt: at(r.startedAt) } : {}), ...(r.endedAt !== undefined ? { endedAt: at(r.endedAt) } : {}) }]),
      );
      orders.push({ id, tpl: tpl.id, instance_id: randomUUID(), created_at: createdAt, nodes });
      for (const entries of tpl.chunks) chunks.push({ order_id: id, entries: entries.map((e) => ({ ...e, at: at(Number(e.at)) })) });
    }
    await db.pool.query(insertOrders, [JSON.stringify(orders)]);
    await db.pool.query(insertChunks, [JSON.stringify(chunks)]);
    progress(Math.min(count, done + BATCH));
  }
}

const counted = async (db: BenchDatabase): Promise<number> => Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM flow_stats_orders')).rows[0].n);

export async function statsScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const total = options.statsOrders;
  const db = await ctx.stack.createDatabase('stats');
  const workspaceFile = writeBenchWorkspace({ skus: 1 });
  const start = () => startService({ databaseUrl: db.serviceUrl, redisUrl: ctx.stack.redisUrl, workspaceFile, password: ctx.password, nodeArgs: options.serviceNodeArgs });
  const problems: string[] = [];
  let service: ServiceProcess | null = await start();
  let client = await BenchClient.withApiToken(service.url, ctx.password, 8);
  try {
    await runTemplates(client);
    const templates = await readTemplates(db);
    if (templates.length !== TEMPLATES) problems.push(`${templates.length} of ${TEMPLATES} templates recorded`);
    if (!(await waitFor(async () => (await counted(db)) >= templates.length, 60_000))) problems.push('the worker did not count the templates');
    client.close();
    await service.stop();
    service = null;

    const p = ctx.progress(`stats: seeding ${total} orders`, total);
    const seedStart = performance.now();
    await seedCopies(db, templates, total, Date.now(), (n) => p.update(n));
    const seedSeconds = (performance.now() - seedStart) / 1000;
    p.done();

    // The service again: its worker aggregates the copies from its cursor. CPU over that, per order.
    service = await start();
    const meter = new CpuMeter([service.pid], ctx.stack.kind === 'embedded' ? await findPostmaster(db.pool) : null);
    const cpu0 = meter.sample();
    const before = await counted(db);
    const t0 = performance.now();
    const expected = templates.length + total;
    const aggregated = await waitFor(async () => (await counted(db)) >= expected, Math.max(120_000, total * 5), 250);
    const aggregateSeconds = (performance.now() - t0) / 1000;
    const folded = (await counted(db)) - before;
    const cpu = CpuMeter.per(cpu0, meter.sample(), Math.max(1, folded));
    if (!aggregated) problems.push(`the worker counted ${folded + before} of ${expected} orders`);
    ctx.log(`stats: ${folded} orders aggregated in ${round(aggregateSeconds, 1)} s`);

    // The answer: the default range (7 days) of the version, timed one request at a time after a warm-up.
    client = await BenchClient.withApiToken(service.url, ctx.password, 4);
    const path = `/api/v1/flows/${MARKETPLACE_FLOW}/stats`;
    const answer = await client.expect<{ orders: Record<string, number>; nodes: Record<string, { runs: number; activeNow: number }> }>(200, 'GET', path);
    const inRange = Object.values(answer.orders).reduce((a, b) => a + b, 0);
    if (inRange !== expected) problems.push(`the answer counts ${inRange} orders, ${expected} were created in the range`);
    const waitingRows = Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE status IN ('waiting', 'running')`)).rows[0].n);
    const activeNow = Object.values(answer.nodes).reduce((a, n) => a + n.activeNow, 0);
    if (activeNow !== waitingRows) problems.push(`activeNow adds up to ${activeNow}, ${waitingRows} orders are running or waiting`);
    const latency = new LatencyRecorder();
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) await client.expect(200, 'GET', path);
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      await client.expect(200, 'GET', path);
      const ms = performance.now() - started;
      samples.push(ms);
      latency.record(ms);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const p95 = round(sorted[Math.ceil(0.95 * sorted.length) - 1], 1);
    const summary = summarise(samples);
    const full = total >= 100_000;
    const rows = [
      row('orders of the version (seeded + templates)', expected),
      row('seeding (straight into the tables)', round(seedSeconds, 1), 's'),
      row('aggregation by the worker after a restart', `${round(aggregateSeconds, 1)} s (${Math.round(folded / Math.max(0.001, aggregateSeconds))} orders/s)`),
      row('aggregation CPU per order: service', cpu.serviceMs, 'ms'),
      row('aggregation CPU per order: PostgreSQL', cpu.postgresMs === null ? 'not measured (server not embedded)' : cpu.postgresMs, cpu.postgresMs === null ? undefined : 'ms'),
      row(`GET stats (7 days) p50 / p95 / max over ${REQUESTS}`, `${summary.p50} / ${p95} / ${summary.max}`, 'ms', full ? `p95 < ${TARGET_MS} ms` : `p95 < ${TARGET_MS} ms at 100,000`, full ? p95 < TARGET_MS : undefined),
    ];
    return {
      scenario: 'stats',
      setup: `${TEMPLATES} marketplace orders run through the API, ${total} copies written into the tables over the last 7 days; the worker aggregates them after a restart; ${REQUESTS} stats requests one at a time`,
      rows,
      data: { orders: expected, seeded: total, seedSeconds, aggregateSeconds, folded, cpuPerOrder: cpu, stats: { ...summary, p95 }, activeNow, inRange },
      problems,
    };
  } finally {
    client.close();
    await service?.stop();
    await db.drop();
  }
}
