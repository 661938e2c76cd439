// Scenario 1, crash under load (issue "Resilience"): marketplace orders in flight, the service SIGKILLed at random
// moments while events, approvals and timers flow, restarted each time; nothing lost, nothing done twice.
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { DAY, MarketplaceDriver, planOrders } from './support/marketplace-load.js';
import { deliveryViolations, marketplaceViolations, restingViolations, stockViolations } from './support/order-invariants.js';
import { SIZES } from './support/resilience-size.js';
import { resilienceSeed, seededRandom } from './support/seed.js';
import { ServiceProcess, type KillMode } from './support/service-process.js';
import { startWebhookRecorder, type WebhookRecorder } from './support/webhook-recorder.js';
import { INITIAL_ON_HAND, writeLoadWorkspace } from './support/workspace-file.js';
import { reportRun } from './support/run-report.js';

const { orders: ORDERS, kills: KILLS } = SIZES.crash;
/** Test-clock days under fire: starts, answers, 2-day timeouts, the 14-day return window and payouts. */
const CHAOS_ROUNDS = 18;
let svc: ServiceProcess | null = null;
let rx: WebhookRecorder | null = null;
afterAll(async () => {
  await svc?.close();
  await rx?.close();
});

describe(`crash under load (${SIZES.form} form: ${ORDERS} orders, ${KILLS} SIGKILLs)`, () => {
  it('every order finishes as planned after SIGKILLs mid-flight: one seller order per seller, at most one capture, one payout per accepted seller, stock balanced, every webhook delivered with a stable id', async () => {
    const started = Date.now();
    const seed = resilienceSeed('crash under load');
    const random = seededRandom(seed);
    rx = await startWebhookRecorder();
    svc = new ServiceProcess({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', OUTBOUND_TIMEOUT_MS: '2000' } });
    const service = svc;
    service.env.WORKSPACE_FILE = writeLoadWorkspace(service.dataDir);
    await service.start();
    const db = dbProbe(() => service.embeddedDatabaseUrl());
    const sub = await service.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/ok` });
    expect(sub.status).toBe(201);

    const plans = planOrders(ORDERS, random, `crash-${seed}`);
    const driver = new MarketplaceDriver(service, db, plans);

    // The killer: SIGKILL at random moments spread over the chaos rounds (alternately the service alone, leaving
    // its embedded PostgreSQL orphaned, and the whole process group, crashing PostgreSQL too), restarting each time.
    const kills: { mode: KillMode; round: number }[] = [];
    const killRounds = Array.from({ length: KILLS }, () => Math.floor(random() * CHAOS_ROUNDS)).sort((a, b) => a - b);
    let killing: Promise<void> = Promise.resolve();
    const scheduleKill = (round: number) => {
      const delayMs = Math.round(random() * 1_500);
      killing = killing.then(async () => {
        await new Promise((r) => setTimeout(r, delayMs));
        const mode: KillMode = kills.length % 2 === 0 ? 'service' : 'group';
        await service.kill(mode);
        kills.push({ mode, round });
        await service.start();
      });
    };

    // The load, a test-clock day per round: starts in five batches, seller answers and review decisions as planned,
    // seller waits and reviews timing out after 2 days, return windows ending after 14, payouts.
    const batch = Math.ceil(ORDERS / 5);
    for (let round = 0; round < CHAOS_ROUNDS; round++) {
      for (const r of killRounds) if (r === round) scheduleKill(round);
      const slice = plans.slice(round * batch, (round + 1) * batch);
      if (slice.length) await driver.start(slice);
      await driver.act();
      await driver.advance(DAY);
    }
    await killing;
    const chaosSeconds = Math.round((Date.now() - started) / 1000);

    // Right after the last crash: every order is in a state it can leave.
    const ids = plans.map((p) => p.orderId!);
    expect(await restingViolations(db, ids)).toEqual([]);
    // Each key started exactly one order (the keys themselves expire after 7 test-clock days).
    const startedOnce = await db<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE title LIKE $1", [`Resilience crash-${seed}-%`]);
    expect(startedOnce[0].n).toBe(ORDERS);

    // Driven on, every order finishes as planned, and the last webhook retries and guards run out.
    await driver.driveToEnd();
    await driver.advance(DAY);

    expect(driver.stats.serverErrors).toEqual([]);
    expect(driver.stats.unexpectedReviews).toEqual([]);
    expect(await marketplaceViolations(db, plans)).toEqual([]);
    expect(await stockViolations(db, INITIAL_ON_HAND)).toEqual([]);
    const deliveries = await deliveryViolations(db, ids, sub.body.subscription.id, rx.received);
    expect(deliveries.violations).toEqual([]);

    reportRun('crash under load', {
      form: SIZES.form,
      seed,
      orders: ORDERS,
      kills: kills.length,
      killRounds: kills.map((k) => `${k.round}:${k.mode}`).join(','),
      starts: service.starts,
      requests: driver.stats.requests,
      retriedRequests: driver.stats.retried,
      deliveries: deliveries.deliveries,
      receivedAttempts: deliveries.received,
      duplicatedDeliveries: deliveries.duplicated,
      chaosSeconds,
      seconds: Math.round((Date.now() - started) / 1000),
    });
  }, SIZES.form === 'full' ? 1_800_000 : 300_000);
});
