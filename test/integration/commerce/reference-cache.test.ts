// Reference data cached per version (src/db/reference-cache.ts): a change to products, sellers or workspace settings,
// however it is written, reaches the next order at once, although earlier slices kept the old rows in memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommerceHarness, type CommerceHarness } from './commerce-harness.js';

let h: CommerceHarness;
beforeAll(async () => {
  h = await startCommerceHarness();
});
afterAll(async () => {
  await h?.close();
});

const start = async (lines: { sku: string; qty: number }[]) => {
  const res = await h.t.call('POST', '/api/v1/orders', {
    flowId: 'tpl-marketplace-order',
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines },
  });
  expect(res.status).toBe(201);
  return (await h.t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body;
};

describe('reference data cache (per version, invalidated by the database)', () => {
  it('a catalogue price written straight into the database prices the next order: every write moves the reference version', async () => {
    const [{ version: before }] = await h.rows('SELECT version FROM reference_version');
    const first = await start([{ sku: 'MUG-1', qty: 1 }]);
    const [{ price_minor }] = await h.rows('SELECT price_minor FROM products WHERE sku = $1', ['MUG-1']);
    expect(first.order.subtotal).toBe(Number(price_minor) / 100);
    await h.rows('UPDATE products SET price_minor = price_minor + 100 WHERE sku = $1', ['MUG-1']);
    const [{ version: after }] = await h.rows('SELECT version FROM reference_version');
    expect(Number(after)).toBeGreaterThan(Number(before));
    const second = await start([{ sku: 'MUG-1', qty: 1 }]);
    expect(second.order.subtotal).toBe(Number(price_minor) / 100 + 1);
  });

  it('a workspace tax rate and a seller made inactive take effect on the next order, not a cached copy', async () => {
    const [{ tax_rate }] = await h.rows('SELECT tax_rate FROM workspace WHERE id = 1');
    try {
      await h.rows('UPDATE workspace SET tax_rate = 0.1 WHERE id = 1');
      const taxed = await start([{ sku: 'MUG-1', qty: 2 }]);
      expect(taxed.order.tax).toBeGreaterThan(0);
      expect(taxed.order.tax).toBeCloseTo(taxed.order.subtotal * 0.1, 2);
      await h.rows('UPDATE workspace SET tax_rate = 0 WHERE id = 1');
      const untaxed = await start([{ sku: 'MUG-1', qty: 2 }]);
      expect(untaxed.order.tax).toBe(0);
    } finally {
      await h.rows('UPDATE workspace SET tax_rate = $1 WHERE id = 1', [tax_rate]);
    }

    const [{ seller_id }] = await h.rows('SELECT seller_id FROM products WHERE seller_id IS NOT NULL ORDER BY sku LIMIT 1');
    const [{ sku }] = await h.rows('SELECT sku FROM products WHERE seller_id = $1 ORDER BY sku LIMIT 1', [seller_id]);
    const served = await start([{ sku, qty: 1 }]);
    expect(served.status).toBe('waiting');
    await h.rows('UPDATE sellers SET active = false WHERE id = $1', [seller_id]);
    try {
      const refused = await start([{ sku, qty: 1 }]);
      // An inactive seller fails the split without retry (commerce.split_by_seller).
      expect(refused.status).not.toBe('waiting');
      expect(refused.nodes.split.status).toBe('failed');
    } finally {
      await h.rows('UPDATE sellers SET active = true WHERE id = $1', [seller_id]);
    }
  });
});
