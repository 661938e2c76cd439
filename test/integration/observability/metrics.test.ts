// GET /metrics (issue "Operability"): Prometheus text after a marketplace order, counters moved; operator only; lifecycle log lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { tokenFor } from '../orders/orders-support.js';

const DAY = 86_400_000;
let t: TestService;
const logs: Record<string, unknown>[] = [];
beforeAll(async () => {
  t = await startTestService({ logRecords: logs });
});
afterAll(async () => {
  await t?.close();
});

/** One sample's value from a text exposition: `name{labels}` exactly as written, or 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const scrape = async () => {
  const res = await t.call('GET', '/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};

describe('metrics', () => {
  it('after a marketplace order runs to completion, the order, slice, timer, wait and HTTP metrics moved (Prometheus text format)', async () => {
    const before = await scrape();
    const start = await t.call('POST', '/api/v1/orders', {
      flowId: 'tpl-marketplace-order',
      input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }] },
    });
    expect(start.status, start.text).toBe(201);
    const orderId = start.body.orderId as string;

    // Waiting for the sellers: the open event wait is counted by kind.
    const waiting = await scrape();
    expect(sample(waiting, 'orders_service_waits_open{kind="event"}')).toBeGreaterThanOrEqual(1);
    expect(sample(waiting, 'orders_service_timers_pending{kind="wait.timeout"}')).toBeGreaterThanOrEqual(1);

    for (const sellerId of ['seller_acme', 'seller_bolt'])
      expect((await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'seller.responded', payload: { sellerId, decision: 'accepted' } })).body.delivered).toBe(true);
    await t.advance(15 * DAY); // past the return window: payout, then completed
    expect((await t.call('GET', `/api/v1/orders/${orderId}`)).body.status).toBe('completed');

    const after = await scrape();
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('orders_service_orders_started_total{flow="tpl-marketplace-order"}')).toBe(1);
    expect(moved('orders_service_orders_ended_total{flow="tpl-marketplace-order",status="completed"}')).toBe(1);
    expect(moved('orders_service_order_status_changes_total{flow="tpl-marketplace-order",to="waiting"}')).toBeGreaterThanOrEqual(1);
    expect(moved('orders_service_run_slice_duration_seconds_count{command="start"}')).toBe(1);
    expect(moved('orders_service_run_slice_duration_seconds_count{command="event"}')).toBe(2);
    expect(moved('orders_service_run_slice_statements_count{command="event"}')).toBe(2);
    expect(sample(after, 'orders_service_run_slice_statements_sum{command="start"}')).toBeGreaterThanOrEqual(3);
    expect(moved('orders_service_timers_fired_total{kind="wait.timeout"}')).toBeGreaterThanOrEqual(1);
    expect(moved('orders_service_http_request_duration_seconds_count{method="POST",route="/api/v1/orders",status="201"}')).toBe(1);
    expect(moved('orders_service_http_request_duration_seconds_count{method="POST",route="/api/v1/orders/:id/events",status="200"}')).toBe(2);
    expect(sample(after, 'orders_service_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(after).toMatch(/^orders_service_process_cpu_seconds_total /m);
    expect(after).toMatch(/^orders_service_outbox_backlog \d+$/m);
    expect(after).toMatch(/^orders_service_scheduler_claim_conflicts_total \d+$/m);
    // Every series has HELP and TYPE lines (what a Prometheus server parses).
    for (const name of ['orders_service_orders_started_total', 'orders_service_waits_open', 'orders_service_http_request_duration_seconds'])
      expect(after).toMatch(new RegExp(`^# HELP ${name} .+\\n# TYPE ${name} (counter|gauge|histogram)$`, 'm'));

    // One lifecycle line per event, with the order id, the flow and the duration.
    const lines = logs.filter((l) => l.orderId === orderId && typeof l.event === 'string');
    expect(lines.map((l) => l.msg)).toEqual(['order started', 'order waiting', 'order completed']);
    for (const l of lines) expect(l).toMatchObject({ flow: 'tpl-marketplace-order@1', durationMs: expect.any(Number) });
    expect(lines.at(-1)!.durationMs).toBeGreaterThanOrEqual(14 * DAY);
  });

  it('a cancelled order logs "order cancelled" and counts as ended with status cancelled', async () => {
    const before = await scrape();
    const start = await t.call('POST', '/api/v1/orders', {
      flowId: 'tpl-marketplace-order',
      input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'MUG-1', qty: 1 }] },
    });
    expect(start.status, start.text).toBe(201);
    const orderId = start.body.orderId as string;
    expect((await t.call('POST', `/api/v1/orders/${orderId}/cancel`, { reason: 'Buyer cancelled' })).status).toBe(200);
    const after = await scrape();
    expect(
      sample(after, 'orders_service_orders_ended_total{flow="tpl-marketplace-order",status="cancelled"}') -
        sample(before, 'orders_service_orders_ended_total{flow="tpl-marketplace-order",status="cancelled"}'),
    ).toBe(1);
    expect(logs.find((l) => l.orderId === orderId && l.msg === 'order cancelled')).toMatchObject({ event: 'cancelled', reason: 'Buyer cancelled' });
  });

  it('GET /metrics refuses an anonymous caller (401) and a viewer or approver (403); an operator token reads it', async () => {
    expect((await t.call('GET', '/metrics', undefined, { token: null })).status).toBe(401);
    expect((await t.call('GET', '/metrics', undefined, { token: 'not-a-credential' })).status).toBe(401);
    const viewer = await t.call('GET', '/metrics', undefined, { token: await tokenFor(t, 'viewer') });
    expect(viewer.status).toBe(403);
    expect(viewer.text).not.toContain('orders_service_');
    expect((await t.call('GET', '/metrics', undefined, { token: await tokenFor(t, 'approver') })).status).toBe(403);
    const operator = await t.call('GET', '/metrics', undefined, { token: await tokenFor(t, 'operator') });
    expect(operator.status).toBe(200);
    expect(operator.text).toContain('orders_service_orders_started_total');
  });

  it('request lines are debug (not logged at info); metrics count them instead', async () => {
    expect(logs.some((l) => l.msg === 'request')).toBe(false);
  });
});

describe('METRICS_PORT', () => {
  it('a second listener serves GET /metrics without a credential, and answers anything else 404', async () => {
    const records: Record<string, unknown>[] = [];
    const s = await startTestService({ env: { METRICS_PORT: '0' }, logRecords: records });
    try {
      const url = records.find((r) => r.msg === 'metrics listening')?.url as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('orders_service_orders_started_total');
      expect((await fetch(url.replace('/metrics', '/api/v1/orders'))).status).toBe(404);
      expect((await fetch(url, { method: 'POST' })).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});
