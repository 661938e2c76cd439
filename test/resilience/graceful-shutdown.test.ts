// Scenario 5, graceful shutdown (issue "Resilience"): SIGTERM under load drains in-flight requests and their commits,
// stops timers and deliveries (a hanging receiver included), shuts the embedded PostgreSQL down cleanly, exits 0
// within 10 s; what was answered is there after a restart, and an abandoned delivery is made later with its id.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { HOUR, MarketplaceDriver, planOrders, startBody } from './support/marketplace-load.js';
import { deliveryViolations, marketplaceViolations } from './support/order-invariants.js';
import { SIZES } from './support/resilience-size.js';
import { reportRun } from './support/run-report.js';
import { resilienceSeed, seededRandom } from './support/seed.js';
import { ServiceProcess, type Reply } from './support/service-process.js';
import { startWebhookRecorder, type WebhookRecorder } from './support/webhook-recorder.js';
import { writeLoadWorkspace } from './support/workspace-file.js';

const IN_FLIGHT = SIZES.shutdown.inFlight;
let svc: ServiceProcess | null = null;
let rx: WebhookRecorder | null = null;
afterAll(async () => {
  await svc?.close();
  await rx?.close();
});

/**
 * The cluster state in `global/pg_control` (PostgreSQL's DBState at byte 16, after the system identifier and two
 * version numbers): 1 = shut down cleanly; 6 = in production, i.e. the server was not stopped properly.
 */
function clusterState(dataDir: string): number {
  return readFileSync(path.join(dataDir, 'pg', 'global', 'pg_control')).readInt32LE(16);
}
const SHUT_DOWN = 1;

describe(`graceful shutdown (${SIZES.form} form: ${IN_FLIGHT} requests in flight)`, () => {
  it('SIGTERM under load: answered requests are committed, nothing answers 5xx, deliveries to a hanging receiver do not hold the exit, the embedded database shuts down cleanly, exit 0 within 10 s', async () => {
    const seed = resilienceSeed('graceful shutdown');
    rx = await startWebhookRecorder();
    // The spec's outbound timeout (10 s): a hanging receiver would hold a delivery that long.
    svc = new ServiceProcess({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', OUTBOUND_TIMEOUT_MS: '10000' } });
    const service = svc;
    service.env.WORKSPACE_FILE = writeLoadWorkspace(service.dataDir);
    await service.start();
    const db = dbProbe(() => service.embeddedDatabaseUrl());
    const ok = await service.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/ok` });
    const hang = await service.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/hang` });
    expect([ok.status, hang.status]).toEqual([201, 201]);

    // Orders whose first seller already accepted: the second answer in flight runs reserve, ship and capture and
    // emits webhooks (the hanging receiver holds those), next to starts of new orders.
    const plans = planOrders(IN_FLIGHT * 2, seededRandom(seed), `shutdown-${seed}`).map((p) => ({ ...p, review: 'none' as const }));
    const driver = new MarketplaceDriver(service, db, plans);
    for (const p of plans.slice(0, IN_FLIGHT)) p.sellers = { seller_acme: 'accepted', seller_bolt: 'silent' };
    await driver.start(plans.slice(0, IN_FLIGHT));
    await driver.act();

    // In flight at SIGTERM: starts of new orders and seller answers to waiting ones.
    const requests: { what: string; reply: Promise<Reply>; plan: (typeof plans)[number] }[] = [];
    for (let i = 0; i < IN_FLIGHT; i++) {
      const fresh = plans[IN_FLIGHT + i];
      requests.push({ what: 'start', plan: fresh, reply: service.call('POST', '/api/v1/orders', startBody(fresh), { headers: { 'idempotency-key': fresh.key } }) });
      const waiting = plans[i];
      waiting.sellers.seller_bolt = 'accepted';
      requests.push({
        what: 'answer',
        plan: waiting,
        reply: service.call('POST', `/api/v1/orders/${waiting.orderId}/events`, { event: 'seller.responded', payload: { sellerId: 'seller_bolt', decision: 'accepted' } }),
      });
    }
    // SIGTERM once the hanging receiver holds a delivery (requests are still in flight then).
    const recorder = rx;
    for (let waited = 0; recorder.hanging() === 0 && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    const hangingBefore = recorder.hanging();
    expect(hangingBefore).toBeGreaterThan(0);
    const { code, ms } = await service.terminate(20_000);
    const replies = await Promise.all(requests.map(async (r) => ({ ...r, answer: await r.reply })));

    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(clusterState(service.dataDir)).toBe(SHUT_DOWN);
    expect(service.postmasterPidFileExists()).toBe(false);
    expect(replies.filter((r) => r.answer.status >= 500).map((r) => `${r.what} ${r.answer.status} ${r.answer.text}`)).toEqual([]);
    const answered = replies.filter((r) => r.answer.status === 200 || r.answer.status === 201);
    expect(answered.length).toBeGreaterThan(0);
    // Whatever was not answered never reached the service (refused), it was not cut off mid-way with an error.
    expect(replies.filter((r) => r.answer.status !== 0 && r.answer.status !== 200 && r.answer.status !== 201).map((r) => r.answer.status)).toEqual([]);

    // Restart (the hanging receiver has recovered meanwhile): what was answered is committed.
    rx.release();
    await service.start();
    for (const r of answered) {
      if (r.what === 'start') {
        const rows = await db<{ started: boolean }>('SELECT started FROM orders WHERE id = $1', [r.answer.body.orderId]);
        expect(rows).toEqual([{ started: true }]);
        r.plan.orderId = r.answer.body.orderId;
      } else if (r.answer.body.delivered) {
        const rows = await db("SELECT 1 FROM seller_orders WHERE order_id = $1 AND seller_id = 'seller_bolt' AND status = 'accepted'", [r.plan.orderId]);
        expect(rows.length).toBe(1);
      }
    }

    // Driven on (unanswered starts retried with their keys), every order finishes as planned; the deliveries
    // abandoned at shutdown are made again by their guard timers, with the same ids.
    await driver.start(plans.slice(IN_FLIGHT));
    await driver.driveToEnd();
    await driver.advance(HOUR);
    expect(driver.stats.serverErrors).toEqual([]);
    expect(await marketplaceViolations(db, plans)).toEqual([]);
    const redelivered: number[] = [];
    for (const [sub, at] of [[ok, '/ok'], [hang, '/hang']] as const) {
      const deliveries = await deliveryViolations(db, plans.map((p) => p.orderId!), sub.body.subscription.id, recorder.received.filter((r) => r.path === at));
      expect(deliveries.violations).toEqual([]);
      redelivered.push(deliveries.duplicated);
    }

    const second = await service.terminate(20_000);
    expect(second.code).toBe(0);
    expect(clusterState(service.dataDir)).toBe(SHUT_DOWN);
    reportRun('graceful shutdown', {
      form: SIZES.form,
      seed,
      inFlight: requests.length,
      answeredDuringDrain: answered.length,
      refused: replies.filter((r) => r.answer.status === 0).length,
      hangingDeliveriesAtSigterm: hangingBefore,
      deliveriesRepeatedAfterRestart: redelivered[1],
      exitMs: ms,
      secondExitMs: second.ms,
    });
  }, SIZES.form === 'full' ? 600_000 : 240_000);
});
