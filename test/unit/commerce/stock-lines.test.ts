// The pure rules the stock steps share (issue 29: steps import no database): fulfillment method, line classification, priced lines.
import { describe, expect, it } from 'vitest';
import { fulfillmentOf } from '../../../src/commerce/fulfillment.js';
import { classifyStockLines } from '../../../src/commerce/stock-lines.js';
import { pricedLine } from '../../../src/commerce/priced-line.js';
import type { ProductRow } from '../../../src/commerce/catalogue-repo.js';
import type { OrderLineRow } from '../../../src/commerce/order-lines-repo.js';

const line = (lineNo: number, sku: string, over: Partial<OrderLineRow> = {}): OrderLineRow => ({
  lineNo, sku, name: null, qty: 1, unitPriceMinor: null, sellerId: null, locationId: null, dropped: false, ...over,
});
const product = (sku: string, digital = false): ProductRow => ({ sku, name: sku, priceMinor: 100, sellerId: null, reorderPoint: 0, reorderQty: null, digital });

describe('fulfillmentOf', () => {
  it('ships when the input names no method, and keeps a named location', () => {
    expect(fulfillmentOf({})).toEqual({ method: 'ship', locationId: null });
    expect(fulfillmentOf({ fulfillment: { method: 'pickup', locationId: 'store_soho' } })).toEqual({ method: 'pickup', locationId: 'store_soho' });
  });

  it('ignores fields of the wrong type instead of trusting them', () => {
    expect(fulfillmentOf({ fulfillment: { method: 7, locationId: ['x'] } })).toEqual({ method: 'ship', locationId: null });
  });
});

describe('classifyStockLines', () => {
  it('sorts lines into physical, digital and untracked, each in line order', () => {
    const lines = [line(1, 'MUG-1'), line(2, 'GIFT-50'), line(3, 'NOPE'), line(4, 'CHAIR')];
    const products = new Map([['MUG-1', product('MUG-1')], ['GIFT-50', product('GIFT-50', true)], ['CHAIR', product('CHAIR')]]);
    const out = classifyStockLines(lines, products);
    expect(out.physical.map((p) => p.line.lineNo)).toEqual([1, 4]);
    expect(out.digital.map((p) => [p.line.lineNo, p.product.digital])).toEqual([[2, true]]);
    expect(out.untracked.map((l) => l.sku)).toEqual(['NOPE']);
  });
});

describe('pricedLine', () => {
  it('passes a priced line through and refuses one the price step has not filled', () => {
    expect(pricedLine(line(1, 'MUG-1', { unitPriceMinor: 1250 })).unitPriceMinor).toBe(1250);
    expect(() => pricedLine(line(2, 'MUG-1'))).toThrow('Line 2 (MUG-1) has no price yet; run commerce.price first');
  });
});
