// Unit tests for the fraud score (marketplace flow: score fraud risk; runtime-contract 7: high_risk forces 95).
import { describe, expect, it } from 'vitest';
import { fraudScore, type FraudInput } from '../../../src/domain/fraud-score.js';

const known: FraudInput = { baseTotalUsdMinor: 5_000, currency: 'USD', customerId: 'cust_1', contactEmail: 'buyer@example.com', lines: [{ qty: 1 }] };
const codes = (input: FraudInput) => fraudScore(input).signals.map((s) => s.code);

describe('fraud score: deterministic, 0..100, documented signals', () => {
  it('a known customer ordinary order scores 0', () => {
    expect(fraudScore(known)).toEqual({ score: 0, signals: [] });
  });

  it('order value bands in USD: 10 / 25 / 40', () => {
    expect(fraudScore({ ...known, baseTotalUsdMinor: 49_999 }).score).toBe(0);
    expect(fraudScore({ ...known, baseTotalUsdMinor: 50_000 }).score).toBe(10);
    expect(fraudScore({ ...known, baseTotalUsdMinor: 200_000 }).score).toBe(25);
    expect(fraudScore({ ...known, baseTotalUsdMinor: 1_000_000 }).score).toBe(40);
  });

  it('guest (+15), anonymous (+10), free mail (+5), throwaway mail (+25)', () => {
    expect(fraudScore({ ...known, customerId: null }).score).toBe(15);
    expect(fraudScore({ ...known, customerId: null, contactEmail: null }).score).toBe(25);
    expect(fraudScore({ ...known, contactEmail: 'x@Gmail.com' }).score).toBe(5);
    expect(fraudScore({ ...known, contactEmail: 'x@mailinator.com' }).score).toBe(25);
  });

  it('PO box (+20), many lines (+5), bulk quantity (+10), country/currency mismatch (+10)', () => {
    expect(codes({ ...known, shipTo: 'PO Box 1, Reno NV' })).toEqual(['po_box']);
    expect(codes({ ...known, lines: Array(21).fill({ qty: 1 }) })).toEqual(['many_lines']);
    expect(codes({ ...known, lines: [{ qty: 50 }] })).toEqual(['bulk_quantity']);
    expect(codes({ ...known, lines: Array(10).fill({ qty: 10 }) })).toEqual(['bulk_quantity']);
    const shipTo = { line1: '1 Rue X', city: 'Paris', postalCode: '75001', country: 'FR' };
    expect(fraudScore({ ...known, shipTo }).score).toBe(10);
    expect(fraudScore({ ...known, shipTo, currency: 'EUR' }).score).toBe(0);
    expect(fraudScore({ ...known, shipTo: { ...shipTo, country: 'Atlantis' } }).score).toBe(0);
  });

  it('a $10,000 guest order to a PO box crosses the default threshold of 70; the score caps at 100', () => {
    expect(fraudScore({ ...known, customerId: null, baseTotalUsdMinor: 1_000_000, shipTo: 'PO Box 9' }).score).toBe(75);
    const worst: FraudInput = {
      baseTotalUsdMinor: 5_000_000, currency: 'USD', customerId: null, contactEmail: 'x@yopmail.com',
      shipTo: { line1: 'PO Box 1', city: 'Paris', postalCode: '75001', country: 'FR' }, lines: Array(30).fill({ qty: 10 }),
    };
    expect(fraudScore(worst).score).toBe(100);
  });

  it('meta.simulate high_risk forces 95, whatever else', () => {
    expect(fraudScore({ ...known, meta: { simulate: 'high_risk' } }).score).toBe(95);
    expect(fraudScore({ ...known, meta: { simulate: ['ship_error', 'high_risk'] }, customerId: null, baseTotalUsdMinor: 5_000_000 }).score).toBe(95);
    expect(fraudScore({ ...known, meta: { simulate: ['ship_error'] } }).score).toBe(0);
  });
});
