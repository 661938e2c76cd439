// Scenario 3, PostgreSQL outage (issue "Resilience"): the private server stops mid-run; requests fail fast with
// 503 { error } and /health/deep is 503; it starts again and the same process recovers, losing no order.
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { DAY, MarketplaceDriver, planOrders, startBody } from './support/marketplace-load.js';
import { deliveryViolations, marketplaceViolations, stockViolations } from './support/order-invariants.js';
import { fireNextTimersInRealTime } from './support/real-time-timers.js';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { SIZES } from './support/resilience-size.js';
import { reportRun } from './support/run-report.js';
import { resilienceSeed, seededRandom } from './support/seed.js';
import { ServiceProcess, type Reply } from './support/service-process.js';
import { startWebhookRecorder, type WebhookRecorder } from './support/webhook-recorder.js';
import { INITIAL_ON_HAND, writeLoadWorkspace } from './support/workspace-file.js';

const ORDERS = SIZES.postgresOutage.orders;
/** "Fail fast": well below the pool's 5 s connect timeout, let alone a hang. */
const FAST_MS = 2_500;

let server: PrivatePostgres | null = null;
let svc: ServiceProcess | null = null;
let rx: WebhookRecorder | null = null;
afterAll(async () => {
  await svc?.close();
  await server?.close();
  await rx?.close();
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - started;
}

/** A 503 that says only `{ error }`: no driver message, no address, no stack. */
function expectOutageAnswer(reply: Reply, what: string): void {
  expect(reply.status, `${what}: ${reply.status} ${reply.text}`).toBe(503);
  expect(Object.keys(reply.body ?? {}), what).toEqual(['error']);
  expect(reply.text, what).not.toMatch(/ECONN|5432|postgres|terminat|stack|at \w+ \(/i);
  expect(reply.ms, `${what} took ${Math.round(reply.ms)} ms`).toBeLessThan(FAST_MS);
}

describe(`PostgreSQL outage (${SIZES.form} form: ${ORDERS} orders)`, () => {
  it('while PostgreSQL is stopped every request fails fast with 503 { error } and /health/deep is 503; started again, the same process recovers and every order finishes as planned', async () => {
    const started = Date.now();
    const seed = resilienceSeed('PostgreSQL outage');
    const random = seededRandom(seed);
    rx = await startWebhookRecorder();
    server = await startPrivatePostgres();
    const pgServer = server;
    svc = new ServiceProcess({ env: { DATABASE_URL: pgServer.url, OUTBOUND_ALLOW_LOOPBACK: '1', OUTBOUND_TIMEOUT_MS: '2000' } });
    const service = svc;
    service.env.WORKSPACE_FILE = writeLoadWorkspace(service.dataDir);
    await service.start();
    const pid = service.pid();
    const db = dbProbe(() => pgServer.url);
    const sub = await service.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/ok` });
    expect(sub.status).toBe(201);

    const plans = planOrders(ORDERS, random, `pg-outage-${seed}`);
    const driver = new MarketplaceDriver(service, db, plans);
    const half = Math.floor(ORDERS / 2);
    await driver.start(plans.slice(0, half));
    await driver.act();
    const known = plans[0].orderId!;

    // The second half starts as the server stops (once the first of them is answered, the rest are mid-flight):
    // each answer is a 2xx or a 503, never a 500.
    const racing = plans.slice(half).map((p) => service.call('POST', '/api/v1/orders', startBody(p), { headers: { 'idempotency-key': p.key } }));
    await Promise.race([Promise.race(racing), new Promise((r) => setTimeout(r, 2_000))]);
    await pgServer.stop();
    const raced = await Promise.all(racing);
    expect(raced.filter((r) => ![200, 201, 503].includes(r.status)).map((r) => `${r.status} ${r.text}${r.error ?? ''}`)).toEqual([]);
    // An order answered 201 must be the one its key gives back after the outage.
    raced.forEach((r, i) => r.status === 201 && (plans[half + i].orderId = r.body.orderId));

    // During the outage, rounds of reads, writes, the clock and health: all fail fast, the process stays up.
    let outageProbes = 0;
    let slowest = 0;
    for (let round = 0; round < 3; round++) {
      const probes: [string, Promise<Reply>][] = [
        ['read an order', service.call('GET', `/api/v1/orders/${known}`)],
        ['list orders', service.call('GET', '/api/v1/orders?limit=5')],
        ['start an order', service.call('POST', '/api/v1/orders', startBody(plans[0]), { headers: { 'idempotency-key': `during-outage-${round}` } })],
        ['deliver an event', service.call('POST', `/api/v1/orders/${known}/events`, { event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' } })],
        ['cancel', service.call('POST', `/api/v1/orders/${known}/cancel`, { reason: 'probe' })],
        ['advance the clock', service.call('POST', '/api/v1/test/clock', { advanceMs: 1_000 })],
      ];
      for (const [what, p] of probes) {
        const reply = await p;
        expectOutageAnswer(reply, what);
        slowest = Math.max(slowest, reply.ms);
        outageProbes += 1;
      }
      const deep = await service.call('GET', '/health/deep');
      expect(deep.status).toBe(503);
      expect(deep.body.checks.database).toBe('fail');
      expect((await service.call('GET', '/health')).status).toBe(200);
      // Long enough for the scheduler sweep (5 s) and the outbox poll (1 s) to hit the outage too.
      await new Promise((r) => setTimeout(r, 2_000));
    }
    expect(service.pid()).toBe(pid);

    // Started again: the same process answers /health/deep 200 and serves requests, no restart.
    await pgServer.start();
    const recoveryMs = await until('/health/deep 200 after the restart of PostgreSQL', async () => (await service.call('GET', '/health/deep')).status === 200);
    expect(service.pid()).toBe(pid);
    expect(service.starts).toBe(1);
    const outageKeys = await db<{ n: number }>("SELECT count(*)::int AS n FROM idempotency_keys WHERE key LIKE 'during-outage-%'");
    expect(outageKeys[0].n).toBe(0);

    // The scheduler's own loop survived: timers coming due in real time fire without the clock route's help
    // (after the planned answers are in, so only silent sellers and reviews time out).
    await driver.act();
    await driver.act();
    const realTime = await fireNextTimersInRealTime(db, driver, plans.slice(0, half).map((p) => p.orderId!));
    expect(realTime.fired).toBeGreaterThan(0);

    // No order lost: the racing starts retried with their keys give one order each; all finish as planned.
    await driver.start(plans.slice(half));
    await driver.driveToEnd();
    await driver.advance(DAY);
    expect(driver.stats.serverErrors).toEqual([]);
    expect(await marketplaceViolations(db, plans)).toEqual([]);
    expect(await stockViolations(db, INITIAL_ON_HAND)).toEqual([]);
    // Each key started exactly one order (the keys themselves expire after 7 test-clock days).
    const startedOnce = await db<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE title LIKE $1', [`Resilience pg-outage-${seed}-%`]);
    expect(startedOnce[0].n).toBe(ORDERS);
    const deliveries = await deliveryViolations(db, plans.map((p) => p.orderId!), sub.body.subscription.id, rx.received);
    expect(deliveries.violations).toEqual([]);

    reportRun('PostgreSQL outage', {
      form: SIZES.form,
      seed,
      orders: ORDERS,
      racingStarts: raced.length,
      racing503: raced.filter((r) => r.status === 503).length,
      outageProbes,
      slowestOutageAnswerMs: Math.round(slowest),
      recoveryMs,
      timersFiredInRealTimeAfterRecovery: realTime.fired,
      deliveries: deliveries.deliveries,
      seconds: Math.round((Date.now() - started) / 1000),
    });
  }, SIZES.form === 'full' ? 900_000 : 300_000);
});
