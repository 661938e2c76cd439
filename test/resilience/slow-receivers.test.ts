// Scenario 4, slow and failing receivers (issue "Resilience"): webhook receivers that hang, reset the connection
// or answer 500 never block order processing. Orders keep completing, and order timers due while retries to a
// hanging receiver fill the scheduler still fire on time; afterwards each delivery ends delivered or failed.
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { HOUR, MarketplaceDriver, planOrders, pool } from './support/marketplace-load.js';
import { marketplaceViolations } from './support/order-invariants.js';
import { SIZES } from './support/resilience-size.js';
import { reportRun } from './support/run-report.js';
import { resilienceSeed, seededRandom } from './support/seed.js';
import { ServiceProcess } from './support/service-process.js';
import { startWebhookRecorder, type WebhookRecorder } from './support/webhook-recorder.js';
import { writeLoadWorkspace } from './support/workspace-file.js';

const ORDERS = SIZES.slowReceivers.orders;
/** Each attempt to a hanging receiver holds its connection this long. */
const TIMEOUT_MS = 3_000;
/** The order timers of the probe flow: due while the retries to the hanging receivers are in flight. */
const PROBE_TIMEOUT = '20s';

let svc: ServiceProcess | null = null;
let rx: WebhookRecorder | null = null;
afterAll(async () => {
  await svc?.close();
  await rx?.close();
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return Date.now() - started;
}

describe(`slow and failing receivers (${SIZES.form} form: ${ORDERS} orders)`, () => {
  it('receivers that hang, reset or answer 500 do not hold orders back: orders complete and order timers fire on time while deliveries are stuck; then every delivery ends delivered or failed', async () => {
    const started = Date.now();
    const seed = resilienceSeed('slow receivers');
    rx = await startWebhookRecorder();
    const recorder = rx;
    svc = new ServiceProcess({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const service = svc;
    // No return window: a marketplace order completes in real time once its sellers accept (a 0 ms delay timer).
    service.env.WORKSPACE_FILE = writeLoadWorkspace(service.dataDir, { returnWindowDays: 0 });
    await service.start();
    const db = dbProbe(() => service.embeddedDatabaseUrl());

    // A probe flow whose only wait times out in real time.
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'wait', type: 'wait.event', params: { event: 'never.sent', timeout: PROBE_TIMEOUT } },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [{ from: 'start', to: 'wait' }, { from: 'wait', to: 'done', branch: 'timeout' }, { from: 'wait', to: 'done', branch: 'received' }],
    };
    expect((await service.call('PUT', '/api/v1/flows/probe-timer', { name: 'Probe timer', graph })).status).toBe(200);
    expect((await service.call('POST', '/api/v1/flows/probe-timer/publish')).status).toBe(200);

    // Two hanging receivers take every event; the failing ones one event per order (their retries run out later).
    const subs: Record<string, string> = {};
    for (const p of ['/hang', '/hang?again', '/reset', '/fail', '/ok']) {
      const events = p === '/reset' || p === '/fail' ? ['order.payout_scheduled'] : undefined;
      const res = await service.call('POST', '/api/v1/webhook-subscriptions', { url: `${recorder.url}${p}`, ...(events ? { events } : {}) });
      expect(res.status).toBe(201);
      subs[p] = res.body.subscription.id;
    }

    // Every seller accepts, nobody reviews: each order captures, ships, pays out and completes at once.
    const plans = planOrders(ORDERS, seededRandom(seed), `slow-${seed}`).map((p) => ({
      ...p,
      review: 'none' as const,
      sellers: { seller_acme: 'accepted' as const, seller_bolt: 'accepted' as const },
    }));
    const driver = new MarketplaceDriver(service, db, plans);
    const probes: string[] = [];
    const startedAt = Date.now();
    await Promise.all([
      driver.start(plans),
      pool(Array.from({ length: ORDERS }), 6, async () => {
        const res = await service.call('POST', '/api/v1/orders', { flowId: 'probe-timer', input: { model: 'b2c' } });
        expect(res.status).toBe(201);
        probes.push(res.body.orderId);
      }),
    ]);
    await driver.act();
    await driver.act();

    // Orders complete while the hanging receivers hold their connections.
    await until('marketplace and probe orders completed', async () => {
      const [row] = await db<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE status = 'completed'");
      return row.n === ORDERS * 2;
    }, 90_000);
    const completedAfterMs = Date.now() - startedAt;
    const hangingAtCompletion = recorder.hanging();
    expect(hangingAtCompletion).toBeGreaterThan(0);
    const [stuck] = await db<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ANY($1) AND status = $2', [
      [subs['/hang'], subs['/hang?again']],
      'pending',
    ]);
    expect(stuck.n).toBeGreaterThan(0);

    // The probe timers came due while retries to the hanging receivers were in flight, and fired on time.
    const [lag] = await db<{ worst: string; n: number }>(
      "SELECT max(fired_at - due_at) AS worst, count(*)::int AS n FROM timers WHERE order_id = ANY($1) AND kind = 'wait.timeout'",
      [probes],
    );
    // Retries to the hanging receivers fired from their timers in the TIMEOUT_MS before the probes came due
    // (each holds its connection that long): at least as many as the scheduler runs at once (16).
    const [retries] = await db<{ n: number }>(
      `SELECT count(*)::int AS n FROM timers t WHERE t.kind = 'webhook.delivery' AND t.fired_at IS NOT NULL
          AND t.payload->>'deliveryId' IN (SELECT id FROM webhook_deliveries WHERE subscription_id = ANY($1))
          AND t.fired_at BETWEEN (SELECT min(due_at) FROM timers WHERE order_id = ANY($2)) - $3
                             AND (SELECT max(due_at) FROM timers WHERE order_id = ANY($2))`,
      [[subs['/hang'], subs['/hang?again']], probes, TIMEOUT_MS],
    );
    console.log(`[resilience] slow receivers: ${retries.n} hanging retries fired around the probe timers; worst probe timer lag ${lag.worst} ms`);
    expect(lag.n).toBe(ORDERS);
    expect(retries.n, 'retries to the hanging receivers in flight when the probe timers came due').toBeGreaterThanOrEqual(16);
    expect(Number(lag.worst), 'worst lag of an order timer behind retries to hanging receivers').toBeLessThan(TIMEOUT_MS);

    // Afterwards: without the hanging receivers, the clock runs the retries out; each delivery ends delivered or
    // failed after 6 attempts, and no order changed.
    for (const p of ['/hang', '/hang?again']) expect((await service.call('DELETE', `/api/v1/webhook-subscriptions/${subs[p]}`)).status).toBe(200);
    await driver.advance(HOUR);
    const statuses = await db<{ subscription_id: string; status: string; attempts: number; n: number }>(
      'SELECT subscription_id, status, attempts, count(*)::int AS n FROM webhook_deliveries GROUP BY 1, 2, 3',
    );
    // Marketplace orders: paid, shipped, payout_scheduled, completed; probe orders: completed.
    expect(statuses.filter((s) => s.subscription_id === subs['/ok'])).toEqual([{ subscription_id: subs['/ok'], status: 'delivered', attempts: 1, n: ORDERS * 5 }]);
    for (const p of ['/reset', '/fail'])
      expect(statuses.filter((s) => s.subscription_id === subs[p])).toEqual([{ subscription_id: subs[p], status: 'failed', attempts: 6, n: ORDERS }]);
    expect(await marketplaceViolations(db, plans)).toEqual([]);
    const [finished] = await db<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE status = 'completed'");
    expect(finished.n).toBe(ORDERS * 2);

    reportRun('slow receivers', {
      form: SIZES.form,
      seed,
      orders: ORDERS,
      probeOrders: probes.length,
      ordersCompletedAfterMs: completedAfterMs,
      hangingAtCompletion,
      stuckDeliveriesAtCompletion: stuck.n,
      hangingRetriesInFlight: retries.n,
      worstProbeTimerLagMs: Number(lag.worst),
      seconds: Math.round((Date.now() - started) / 1000),
    });
  }, SIZES.form === 'full' ? 600_000 : 240_000);
});
