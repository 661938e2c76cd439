// Scenario 2, Redis outage (issue "Resilience"; contract section 2: Redis holds nothing that cannot be rebuilt):
// Redis stops mid-run; starts and events keep working, timers due meanwhile fire from PostgreSQL; Redis starts
// again (empty) and timers fire through it; every timer fires once.
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { DAY, MarketplaceDriver, planOrders, startBody } from './support/marketplace-load.js';
import { marketplaceViolations, stockViolations } from './support/order-invariants.js';
import { fireNextTimersInRealTime, timerViolations } from './support/real-time-timers.js';
import { SIZES } from './support/resilience-size.js';
import { reportRun } from './support/run-report.js';
import { resilienceSeed, seededRandom } from './support/seed.js';
import { ServiceProcess } from './support/service-process.js';
import { INITIAL_ON_HAND, writeLoadWorkspace } from './support/workspace-file.js';
import { redisServerAvailable, startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';

const ORDERS = SIZES.redisOutage.orders;
let redis: PrivateRedis | null = null;
let svc: ServiceProcess | null = null;
afterAll(async () => {
  await svc?.close();
  await redis?.stop();
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!redisServerAvailable())(`Redis outage (${SIZES.form} form: ${ORDERS} orders)`, () => {
  it('with Redis stopped, starts and events still work and due timers fire from PostgreSQL; Redis back (empty), timers fire through it; every timer fires once and every order finishes as planned', async () => {
    const started = Date.now();
    const seed = resilienceSeed('Redis outage');
    const random = seededRandom(seed);
    redis = await startPrivateRedis();
    const privateRedis = redis;
    svc = new ServiceProcess({ env: { REDIS_URL: privateRedis.url } });
    const service = svc;
    service.env.WORKSPACE_FILE = writeLoadWorkspace(service.dataDir);
    await service.start();
    const pid = service.pid();
    const db = dbProbe(() => service.embeddedDatabaseUrl());
    expect((await service.call('GET', '/health/deep')).body.checks).toMatchObject({ redis: 'ok', scheduler: 'ok' });

    const plans = planOrders(ORDERS, random, `redis-outage-${seed}`);
    const driver = new MarketplaceDriver(service, db, plans);
    const half = Math.floor(ORDERS / 2);
    await driver.start(plans.slice(0, half));
    await driver.act();

    await privateRedis.stop();
    // Starts and events during the outage: answered at once, each a 2xx (no retry needed).
    const during = await Promise.all(
      plans.slice(half).map((p) => service.call('POST', '/api/v1/orders', startBody(p), { headers: { 'idempotency-key': p.key } })),
    );
    expect(during.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    during.forEach((r, i) => (plans[half + i].orderId = r.body.orderId));
    const retriedBefore = driver.stats.retried;
    await driver.act();
    expect(driver.stats.retried).toBe(retriedBefore);
    const deep = await service.call('GET', '/health/deep');
    expect(deep.status).toBe(503);
    expect(deep.body.checks.redis).toBe('fail');
    expect((await service.call('GET', '/api/v1/runtime/stats')).body.scheduler).toMatchObject({ index: 'redis', indexHealthy: false });

    // Timers coming due in real time during the outage fire from PostgreSQL (the scheduler's fallback lease),
    // after the planned answers are in, so only silent sellers and reviews time out.
    await driver.act();
    expect(driver.stats.retried).toBe(retriedBefore);
    const ids = plans.map((p) => p.orderId!);
    const inOutage = await fireNextTimersInRealTime(db, driver, ids);
    expect(inOutage.fired).toBeGreaterThan(0);

    // Redis back, empty: the index is re-seeded from PostgreSQL and timers fire through it again.
    await privateRedis.start();
    await until('/health/deep 200 with Redis back', async () => (await service.call('GET', '/health/deep')).status === 200);
    await driver.act();
    const afterOutage = await fireNextTimersInRealTime(db, driver, ids);
    expect(afterOutage.fired).toBeGreaterThan(0);
    expect((await service.call('GET', '/api/v1/runtime/stats')).body.scheduler).toMatchObject({ index: 'redis', indexHealthy: true, degraded: false });

    await driver.driveToEnd();
    expect(service.pid()).toBe(pid);
    expect(driver.stats.serverErrors).toEqual([]);
    expect(await marketplaceViolations(db, plans)).toEqual([]);
    expect(await stockViolations(db, INITIAL_ON_HAND)).toEqual([]);
    expect(await timerViolations(db, ids)).toEqual([]);

    reportRun('Redis outage', {
      form: SIZES.form,
      seed,
      orders: ORDERS,
      startsDuringOutage: during.length,
      timersFiredDuringOutage: inOutage.fired,
      worstLagDuringOutageMs: inOutage.worstLagMs,
      timersFiredAfterOutage: afterOutage.fired,
      worstLagAfterOutageMs: afterOutage.worstLagMs,
      seconds: Math.round((Date.now() - started) / 1000),
    });
    await driver.advance(DAY);
  }, SIZES.form === 'full' ? 900_000 : 300_000);
});
