// Unit tests for PO box detection (spec "Order input": meta.shipTo is read by the no_po_box policy rule).
import { describe, expect, it } from 'vitest';
import { isPoBox } from '../../../src/domain/po-box.js';

describe('no_po_box: recognise post-office boxes', () => {
  it.each([
    'P.O. Box 123', 'PO Box 123', 'P O Box 5', 'POBox 77', 'P.O.B. 44', 'po bx 9', 'GPO Box 1234, Sydney NSW 2001',
    'Post Office Box 12', 'Postal Box 4', 'Box 123', 'Jane Doe, Box 12, Springfield', 'Locked Bag 3', 'Private Bag 7',
    'Postfach 10 20 30', 'Apartado de Correos 45', 'Apartado 12', 'Apdo. 99', 'Casilla 321', 'Caixa Postal 8',
    'Casella Postale 14', 'Boîte Postale 2', 'BP 45', 'Postbus 100', 'Postboks 55', 'Skrytka pocztowa 6',
  ])('detects %s', (text) => {
    expect(isPoBox(text)).toBe(true);
  });

  it.each(['123 Main Street', '12 Boxwood Lane', '4 Box Hill Road', '9 Post Road', 'Pobeda St 4', 'Apartment 4B', '1 Polo Blvd', ''])(
    'does not flag %s',
    (text) => {
      expect(isPoBox(text)).toBe(false);
    },
  );

  it('checks line1 and line2 of a structured address', () => {
    const base = { line1: '1 Main St', city: 'Reno', postalCode: '89501', country: 'US' };
    expect(isPoBox(base)).toBe(false);
    expect(isPoBox({ ...base, line2: 'PO Box 9' })).toBe(true);
    expect(isPoBox({ ...base, line1: 'P.O. Box 9' })).toBe(true);
    expect(isPoBox(undefined)).toBe(false);
  });
});
