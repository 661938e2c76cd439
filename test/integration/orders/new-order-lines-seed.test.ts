// The first slice's read cache starts with the new order's lines (insertOrder's seed): the seeded rows must be exactly
// what reading them back returns, or a step would act on rows the database does not hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { insertOrder, newOrderId } from '../../../src/orders/new-order.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('insertOrder seeds', () => {
  it('the seeded lines equal a SELECT of them (types included: bigint as text, nulls, line order)', async () => {
    const db = t.service.ctx.db;
    const id = newOrderId();
    await db.tx(async (tx) => {
      const { seeds } = await insertOrder(
        tx,
        {
          id, flowId: 'tpl-b2b-order', flowVersion: 1, model: 'b2b', channel: 'api', externalId: null, title: 'seed', customerId: null,
          contactEmail: null, currency: 'USD', fxRate: 1, subtotal: 0, tax: 0, total: 0, input: {}, meta: {}, vars: {},
          lines: [
            { sku: 'MUG-1', name: 'Mug', qty: 2, unitPriceMinor: 1250, sellerId: 'seller_acme', locationId: null },
            { sku: 'X-2', name: null, qty: 1, unitPriceMinor: null, sellerId: null, locationId: 'loc_main' },
          ],
        },
        t.service.ctx.clock.now(),
      );
      expect(seeds).toHaveLength(1);
      const [seed] = seeds;
      const { rows } = await tx.query(seed.text, seed.values);
      expect(seed.rows).toEqual(rows);
      expect(seed.table).toBe('order_lines');
    });
  });
});
