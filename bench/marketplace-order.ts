// The bench's marketplace order: two third-party sellers (Acme, Bolt) and one first-party line, on tpl-marketplace-order.

export const MARKETPLACE_FLOW = 'tpl-marketplace-order';

/** The sellers that must answer `seller.responded` before the order reserves and ships. */
export const THIRD_PARTY_SELLERS = ['seller_acme', 'seller_bolt'] as const;

export interface BenchLine {
  sku: string;
  qty: number;
}

/** The demo catalogue's lines (used with --skus 1: every order hits the same three stock rows). */
export const DEMO_LINES: readonly BenchLine[] = [
  { sku: 'PAN-CAST-10', qty: 2 }, // seller_acme, 2 x 45.00
  { sku: 'TENT-2P', qty: 1 }, // seller_bolt, 199.00
  { sku: 'MUG-1', qty: 2 }, // first party, 2 x 12.50
];

/** Bench catalogue products per seller class: same prices and sellers as the demo lines, many SKUs. */
export const BENCH_PRODUCT_CLASSES = [
  { prefix: 'BENCH-ACME-', sellerId: 'seller_acme', price: 45, location: 'loc_main', qty: 2 },
  { prefix: 'BENCH-BOLT-', sellerId: 'seller_bolt', price: 199, location: 'loc_west', qty: 1 },
  { prefix: 'BENCH-OWN-', sellerId: null, price: 12.5, location: 'loc_main', qty: 2 },
] as const;

export const benchSku = (prefix: string, i: number): string => `${prefix}${String(i).padStart(4, '0')}`;

/**
 * The lines of bench order `n`. With `skus` = 1 the demo SKUs; otherwise one SKU of each class
 * out of `skus`, spread so that concurrent orders rarely lock the same stock row (a real
 * catalogue's orders do not all buy the same three products).
 */
export function orderLines(n: number, skus: number): BenchLine[] {
  if (skus <= 1) return DEMO_LINES.map((l) => ({ ...l }));
  return BENCH_PRODUCT_CLASSES.map((c, k) => ({ sku: benchSku(c.prefix, (n * (2 * k + 1) + 7 * k) % skus), qty: c.qty }));
}

/** POST /api/v1/orders body: a known customer's ordinary order (fraud score 0, no trust review). */
export function marketplaceOrderBody(externalId: string, lines: BenchLine[]): Record<string, unknown> {
  return {
    flowId: MARKETPLACE_FLOW,
    input: {
      model: 'marketplace',
      channel: 'marketplace',
      customerId: 'cust_1',
      contact: { email: 'buyer@example.com' },
      externalId,
      lines,
    },
  };
}

/** POST /api/v1/orders/:id/events body: one seller accepts its part. */
export function sellerAccepts(sellerId: string): Record<string, unknown> {
  return { event: 'seller.responded', payload: { sellerId, decision: 'accepted' } };
}
