// Unit tests for seller resolution and the split (spec "Seller", "Seller order statuses", "Split node branches").
import { describe, expect, it } from 'vitest';
import { checkSeller, resolveLineSeller } from '../../../src/domain/seller-resolution.js';
import type { SellerSettings } from '../../../src/domain/seller-settings.js';
import { initialSellerOrderStatus, splitBySeller } from '../../../src/domain/seller-split.js';

const sellers: Record<string, SellerSettings> = {
  seller_acme: { id: 'seller_acme', commission: 0.12, autoAccept: false, active: true },
  seller_nimbus: { id: 'seller_nimbus', commission: 0.15, autoAccept: true, active: true },
  seller_dormant: { id: 'seller_dormant', commission: 0.2, autoAccept: false, active: false },
};
const products: Record<string, { sku: string; sellerId?: string }> = {
  'MUG-1': { sku: 'MUG-1' },
  'PAN-CAST-10': { sku: 'PAN-CAST-10', sellerId: 'seller_acme' },
  'PRINT-A3': { sku: 'PRINT-A3', sellerId: 'seller_nimbus' },
  'VASE-OLD': { sku: 'VASE-OLD', sellerId: 'seller_dormant' },
};
const lookups = { productOf: (sku: string) => products[sku], sellerOf: (id: string) => sellers[id] };

describe('spec "Seller": a line seller is lines[].sellerId, then the product seller, else first party', () => {
  it('resolves in that order', () => {
    expect(resolveLineSeller({ sku: 'PAN-CAST-10', sellerId: 'seller_nimbus' }, lookups.productOf)).toBe('seller_nimbus');
    expect(resolveLineSeller({ sku: 'PAN-CAST-10' }, lookups.productOf)).toBe('seller_acme');
    expect(resolveLineSeller({ sku: 'MUG-1' }, lookups.productOf)).toBeNull();
    expect(resolveLineSeller({ sku: 'UNKNOWN' }, lookups.productOf)).toBeNull();
  });

  it('an unknown or inactive seller is a failure result', () => {
    expect(checkSeller('seller_acme', lookups.sellerOf).ok).toBe(true);
    expect(checkSeller('nobody', lookups.sellerOf)).toMatchObject({ ok: false, code: 'unknown_seller', message: 'Unknown seller nobody' });
    expect(checkSeller('seller_dormant', lookups.sellerOf)).toMatchObject({ ok: false, code: 'inactive_seller' });
  });
});

describe('spec "Seller order statuses": created accepted for first party or auto-accept, else pending', () => {
  it('initial status', () => {
    expect(initialSellerOrderStatus(null)).toBe('accepted');
    expect(initialSellerOrderStatus('seller_nimbus', sellers.seller_nimbus)).toBe('accepted');
    expect(initialSellerOrderStatus('seller_acme', sellers.seller_acme)).toBe('pending');
  });
});

describe('spec "Split node branches": one part per seller; accepted when nothing pending, else awaiting', () => {
  it('groups lines per seller with subtotals and reports pending sellers', () => {
    const r = splitBySeller(
      [
        { sku: 'MUG-1', unitPriceMinor: 1250, qty: 2 },
        { sku: 'PAN-CAST-10', unitPriceMinor: 4500, qty: 1 },
        { sku: 'PRINT-A3', unitPriceMinor: 2800, qty: 3 },
        { sku: 'PAN-CAST-10', unitPriceMinor: 4500, qty: 2 },
      ],
      lookups,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.parts.map((p) => [p.sellerId, p.subtotal, p.status, p.lines.length])).toEqual([
      [null, 2500, 'accepted', 1],
      ['seller_acme', 13500, 'pending', 2],
      ['seller_nimbus', 8400, 'accepted', 1],
    ]);
    expect(r.parts[1].lines.every((l) => l.sellerId === 'seller_acme')).toBe(true);
    expect(r.branch).toBe('awaiting');
    expect(r.sellers).toEqual(['seller_acme', 'seller_nimbus']);
    expect(r.pendingSellers).toEqual(['seller_acme']);
  });

  it('first party and auto-accepting sellers only: branch accepted', () => {
    const r = splitBySeller([{ sku: 'MUG-1', unitPriceMinor: 100, qty: 1 }, { sku: 'PRINT-A3', unitPriceMinor: 100, qty: 1 }], lookups);
    expect(r.ok && r.branch).toBe('accepted');
    expect(r.ok && r.pendingSellers).toEqual([]);
  });

  it('the same lines give the same parts (a retried step changes nothing)', () => {
    const lines = [{ sku: 'PAN-CAST-10', unitPriceMinor: 4500, qty: 1 }, { sku: 'MUG-1', unitPriceMinor: 1250, qty: 1 }];
    expect(splitBySeller(lines, lookups)).toEqual(splitBySeller(lines, lookups));
  });

  it('fails on an inactive seller (product) or an unknown seller (line)', () => {
    expect(splitBySeller([{ sku: 'VASE-OLD', unitPriceMinor: 6000, qty: 1 }], lookups)).toMatchObject({
      ok: false, code: 'inactive_seller', sellerId: 'seller_dormant', message: 'Seller seller_dormant is inactive',
    });
    expect(splitBySeller([{ sku: 'MUG-1', unitPriceMinor: 1, qty: 1, sellerId: 'ghost' }], lookups)).toMatchObject({ ok: false, code: 'unknown_seller' });
  });
});
