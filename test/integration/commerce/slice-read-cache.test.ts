// Reads a slice answers from its cache after its own writes (docs/performance.md): an order's seller orders (the locked
// read seeds the plain read, a status change patches the cached rows) and its held stock reservations (the reserving
// statement seeds them). What the cache then answers must be exactly what PostgreSQL holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/db/db.js';
import { attachReadCache, TransactionReadCache } from '../../../src/db/transaction-read-cache.js';
import { sellerOrdersOf, setSellerOrderStatus } from '../../../src/commerce/seller-orders-repo.js';
import { HELD_STATUSES, reservationsOf, reserveAll, stockCandidates } from '../../../src/commerce/stock-repo.js';
import { startTestService, type TestService } from '../../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

/** A client as a slice store's is: a read cache attached, every statement counted (a wrapper, so the pooled client stays plain). */
function sliceClient(tx: Queryable): { client: Queryable; sent: string[] } {
  const cache = new TransactionReadCache();
  const sent: string[] = [];
  const client = {
    query: (text: string, values?: unknown[]) => {
      sent.push(text);
      return tx.query(text, values);
    },
  } as unknown as Queryable;
  attachReadCache(client, cache);
  return { client, sent };
}

async function marketplaceOrder(): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', {
    flowId: 'tpl-marketplace-order',
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'KNIFE-CHEF', qty: 1 }, { sku: 'LANTERN-LED', qty: 2 }] },
  });
  expect(res.status).toBe(201);
  await t.advance(0);
  return res.body.orderId as string;
}

describe('stock reservations in the slice read cache', () => {
  it('after reserving, the held reservations (earlier ones included) come from the cache and equal a fresh read', async () => {
    const id = await marketplaceOrder();
    await t.service.ctx.db.tx(async (tx) => {
      const { client, sent } = sliceClient(tx);
      const candidates = await stockCandidates(tx, ['KNIFE-CHEF', 'LANTERN-LED']);
      const at = (sku: string) => candidates.get(sku)!.find((c) => c.available >= 2)!.locationId;
      // Generation 7: a run of its own, so nothing the flow reserved is in the way.
      const order = { orderId: id, generation: 7, nodeId: 'reserve' };
      expect(await reservationsOf(client, id, 7, HELD_STATUSES)).toEqual([]);
      const first = await reserveAll(client, order, [{ lineNo: 2, sku: 'LANTERN-LED', locationId: at('LANTERN-LED'), qty: 2 }], 1_790_000_000_000);
      const second = await reserveAll(client, order, [{ lineNo: 1, sku: 'KNIFE-CHEF', locationId: at('KNIFE-CHEF'), qty: 1 }], 1_790_000_000_500);
      expect([first.length, second.length]).toEqual([1, 1]);
      const before = sent.length;
      const cached = await reservationsOf(client, id, 7, HELD_STATUSES);
      expect(sent.length).toBe(before);
      expect(cached).toEqual(await reservationsOf(tx, id, 7, HELD_STATUSES));
      expect(cached.map((r) => r.lineNo)).toEqual([1, 2]);
    });
  });
});

describe('seller orders in the slice read cache', () => {
  it('after a locked read and a status change, the cached read equals a fresh read (types included) and costs no statement', async () => {
    const id = await marketplaceOrder();
    await t.service.ctx.db.tx(async (tx) => {
      const { client, sent } = sliceClient(tx);
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
