// The deterministic document parser of ai.extract_order: common PO and email layouts to lines.
import { describe, expect, it } from 'vitest';
import { parseOrderText } from '../../../src/domain/order-text-parser.js';

const KNOWN = ['MUG-1', 'TEE-BLK-M', 'LAMP-OAK', 'GIFT-50'];

describe('parseOrderText', () => {
  it('markdown and pipe tables with SKU, description, qty and price headers', () => {
    const text = 'PO 42\n| Item No | Description | Qty | Unit Price |\n|---|---|---|---|\n| mug-1 | Mug | 10 | $11.00 |\n| TEE-BLK-M | Tee | 5 | |\n\nRegards';
    expect(parseOrderText(text, KNOWN)).toEqual({
      lines: [
        { sku: 'MUG-1', qty: 10, unitPrice: 11, name: 'Mug' },
        { sku: 'TEE-BLK-M', qty: 5, name: 'Tee' },
      ],
      skipped: [],
    });
  });

  it('CSV and tab tables; a row without a readable quantity is reported, not guessed', () => {
    expect(parseOrderText('sku,quantity,price\nMUG-1,3,12.50\nLAMP-OAK,three,1', KNOWN)).toEqual({
      lines: [{ sku: 'MUG-1', qty: 3, unitPrice: 12.5 }],
      skipped: [3],
    });
    expect(parseOrderText('SKU\tQty\nAB-100\t7', KNOWN).lines).toEqual([{ sku: 'AB-100', qty: 7 }]);
  });

  it('labelled lines in any order: "SKU: X Qty: n Price: p"', () => {
    expect(parseOrderText('SKU: LAMP-OAK, Qty: 2, Price: 1,080.50\nQuantity=4 Item #: X9-22', KNOWN).lines).toEqual([
      { sku: 'LAMP-OAK', qty: 2, unitPrice: 1080.5 },
      { sku: 'X9-22', qty: 4 },
    ]);
  });

  it('free text: "2 x SKU", "2x", "3 pcs", "SKU x 2", "SKU - 4 units", "SKU (5)", with "@ price" or "price each"', () => {
    const text = [
      'Hello, please send:',
      '- 2 x MUG-1 @ 12.00',
      '* 2x tee-blk-m',
      '3 pcs LAMP-OAK at $80 each',
      'GIFT-50 x 2',
      'AB-7 - 4 units 9.99 each',
      'ZZ-1 (5)',
      'Thanks, Jo',
    ].join('\n');
    expect(parseOrderText(text, KNOWN).lines).toEqual([
      { sku: 'MUG-1', qty: 2, unitPrice: 12 },
      { sku: 'TEE-BLK-M', qty: 2 },
      { sku: 'LAMP-OAK', qty: 3, unitPrice: 80 },
      { sku: 'GIFT-50', qty: 2 },
      { sku: 'AB-7', qty: 4, unitPrice: 9.99 },
      { sku: 'ZZ-1', qty: 5 },
    ]);
  });

  it('inside sentences only with an explicit multiplier', () => {
    expect(parseOrderText('Hi! Please send 4 x MUG-1 @ 12.00 and 2 pcs TEE-BLK-M. Also LAMP-OAK x 3 if you can.', KNOWN).lines).toEqual([
      { sku: 'MUG-1', qty: 4, unitPrice: 12 },
      { sku: 'TEE-BLK-M', qty: 2 },
      { sku: 'LAMP-OAK', qty: 3 },
    ]);
    expect(parseOrderText('We need 2 of them by Friday, 10 Downing Street.', KNOWN).lines).toEqual([]);
  });

  it('prose, addresses and dates are not lines', () => {
    const text = 'Deliver 2 x the usual to 10 Downing Street by 2025 12 March.\n221B Baker Street\nCall 555 1234';
    expect(parseOrderText(text, KNOWN).lines).toEqual([]);
  });

  it('quantities must be positive whole numbers up to 1,000,000', () => {
    expect(parseOrderText('0 x MUG-1\n2000000 x MUG-1\n1,000 x MUG-1', KNOWN).lines).toEqual([{ sku: 'MUG-1', qty: 1000 }]);
  });
});
