// Notifications without SMTP: queued and said so at start when nothing sends; with a subscription to
// notification.requested, a signed event per message (the webhook adapter), never sent to "*" subscriptions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { startReceiver } from '../orders/webhook-receiver.js';

let t: TestService;
let rx: Awaited<ReturnType<typeof startReceiver>>;
const logs: Record<string, unknown>[] = [];
beforeAll(async () => {
  rx = await startReceiver();
  t = await startTestService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' }, logRecords: logs });
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

const marketplace = async (lines: { sku: string; qty: number }[]) => {
  const res = await t.call('POST', '/api/v1/orders', {
    flowId: 'tpl-marketplace-order',
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines },
  });
  expect(res.status).toBe(201);
  return res.body.orderId as string;
};
const notifications = async (orderId: string) => (await t.call('GET', `/api/v1/orders/${orderId}/notifications`)).body.notifications as any[];

describe('no channel configured', () => {
  it('one start-up line says notifications are not being sent; they stay queued in the order with the reason', async () => {
    const lines = logs.filter((l) => typeof l.msg === 'string' && (l.msg as string).startsWith('notifications are not being sent'));
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe(40); // warn
    const id = await marketplace([{ sku: 'PAN-CAST-10', qty: 1 }]);
    await t.advance(0);
    expect(await notifications(id)).toEqual([
      expect.objectContaining({ recipient: 'seller_acme', address: 'orders@acme-kitchenware.example', status: 'queued', channel: null, lastError: expect.stringContaining('SMTP_URL is not set') }),
    ]);
  });
});

describe('the webhook adapter', () => {
  it('posts a signed notification.requested event per message to subscriptions naming it; "*" gets none of it', async () => {
    const named = (await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/ok`, events: ['notification.requested'] })).body;
    const star = (await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/created` })).body;
    expect(named.subscription.events).toEqual(['notification.requested']);
    const id = await marketplace([{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }]);
    await t.advance(0);
    const got = rx.on('/ok').filter((r) => r.body?.orderId === id);
    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(r.headers['x-service-event']).toBe('notification.requested');
      expect(r.headers['x-service-delivery']).toBe(r.body.id);
      expect(verifySignature(named.secret, String(r.headers['x-service-signature']), r.raw, t.service.ctx.clock.now())).toBe(true);
      expect(r.body).toMatchObject({
        event: 'notification.requested',
        orderId: id,
        data: {
          order: { id },
          notification: { audience: 'seller', subject: expect.stringContaining(id), answerRoute: expect.stringMatching(/\/api\/v1\/webhooks\/events$/) },
        },
      });
    }
    expect(got.map((r) => r.body.data.notification.recipient).sort()).toEqual(['seller_acme', 'seller_bolt']);
    // The "*" subscription receives order events only.
    expect(rx.on('/created').filter((r) => r.body?.orderId === id).map((r) => r.body.event)).not.toContain('notification.requested');
    expect((await notifications(id)).map((x) => [x.channel, x.status, x.attempts])).toEqual([
      ['webhook', 'sent', 1],
      ['webhook', 'sent', 1],
    ]);
    await t.call('DELETE', `/api/v1/webhook-subscriptions/${named.subscription.id}`);
    await t.call('DELETE', `/api/v1/webhook-subscriptions/${star.subscription.id}`);
  });

  it('an unknown event name cannot be subscribed to (400)', async () => {
    const res = await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/ok`, events: ['notification.queued'] });
    expect(res.status).toBe(400);
  });
});
