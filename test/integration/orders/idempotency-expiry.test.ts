// Idempotency-Key headers answer their first order for 7 days, then expire; a channel's order keys never do (docs/api.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startBody, startOrdersService } from './orders-support.js';

const DAY = 86_400_000;
let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
});
afterAll(async () => {
  await t?.close();
});

const post = (key: string, title: string) => t.call('POST', '/api/v1/orders', startBody('wait-flow', { title }), { headers: { 'Idempotency-Key': key } });
const keyRows = async (key: string) => (await t.service.ctx.db.query('SELECT scope FROM idempotency_keys WHERE key = $1', [key])).rows.length;

describe('Idempotency-Key expiry', () => {
  it('a repeat within 7 days answers the first order; after 7 days the key is purged and the same key starts a new order', async () => {
    const first = await post('expiry-1', 'expiry');
    expect(first.status).toBe(201);
    await t.advance(6 * DAY);
    expect((await post('expiry-1', 'expiry')).body).toEqual({ orderId: first.body.orderId, replayed: true });
    await t.advance(DAY + 60_000);
    expect(await keyRows('expiry-1')).toBe(0);
    const later = await post('expiry-1', 'expiry');
    expect(later.status).toBe(201);
    expect(later.body.orderId).not.toBe(first.body.orderId);
  });

  it("a channel's order key (channel + externalId) is kept however old it is", async () => {
    const order = await post('expiry-2', 'channel key');
    await t.service.ctx.db.query(
      "INSERT INTO idempotency_keys (scope, key, fingerprint, order_id, created_at) VALUES ('inbound.orders', 'order:web:EXT-OLD', 'f', $1, $2)",
      [order.body.orderId, t.service.ctx.clock.now()],
    );
    await t.advance(30 * DAY);
    expect(await keyRows('order:web:EXT-OLD')).toBe(1);
    expect(await keyRows('expiry-2')).toBe(0);
  });
});
