// A slice reads an order's seller orders once (docs/performance.md): the locked read seeds the plain read, and a status
// change patches the cached rows. What the cache then answers must be exactly what PostgreSQL holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/db/db.js';
import { attachReadCache, TransactionReadCache } from '../../../src/db/transaction-read-cache.js';
import { sellerOrdersOf, setSellerOrderStatus } from '../../../src/commerce/seller-orders-repo.js';
import { startTestService, type TestService } from '../../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('seller orders in the slice read cache', () => {
  it('after a locked read and a status change, the cached read equals a fresh read (types included) and costs no statement', async () => {
    const res = await t.call('POST', '/api/v1/orders', {
      flowId: 'tpl-marketplace-order',
      input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'KNIFE-CHEF', qty: 1 }, { sku: 'LANTERN-LED', qty: 2 }] },
    });
    expect(res.status).toBe(201);
    const id = res.body.orderId as string;
    await t.advance(0);
    await t.service.ctx.db.tx(async (tx) => {
      // A client as the step client is: every statement shown to the slice's cache first (a wrapper, so the pooled client stays plain).
      const cache = new TransactionReadCache();
      const sent: string[] = [];
      const client = {
        query: (text: string, values?: unknown[]) => {
          cache.sawStatement(text);
          sent.push(text);
          return tx.query(text, values);
        },
      } as unknown as Queryable;
      attachReadCache(client, cache);
      const locked = await sellerOrdersOf(client, id, { lock: true });
      expect(locked.length).toBeGreaterThanOrEqual(2);
      await setSellerOrderStatus(client, locked[0].id, 'accepted', null, 1_790_000_000_123);
      await setSellerOrderStatus(client, locked[1].id, 'rejected', 'Out of stock', 1_790_000_000_456);
      const before = sent.length;
      const cached = await sellerOrdersOf(client, id);
      expect(sent.length).toBe(before);
      expect(cached).toEqual(await sellerOrdersOf(tx, id));
      expect(cached.slice(0, 2).map((s) => [s.status, s.reason, s.updatedAt])).toEqual([
        ['accepted', null, 1_790_000_000_123],
        ['rejected', 'Out of stock', 1_790_000_000_456],
      ]);
    });
  });
});
