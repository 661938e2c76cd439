// Unit tests for money in minor units (DESIGN rule 8: integer minor units, half-up in one function).
import { describe, expect, it } from 'vitest';
import { allocateMinor, fromMinor, minorDigits, multiplyMinor, roundHalfUp, toMinor } from '../../../src/domain/money.js';

describe('DESIGN rule 8: money is integer minor units, rounded half-up', () => {
  it('minor digits: 2 by default, 0 for JPY, 3 for BHD', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('jpy')).toBe(0);
    expect(minorDigits('BHD')).toBe(3);
  });

  it('rounds exact halves up, not to even', () => {
    expect(roundHalfUp(0.5)).toBe(1);
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(2.4999)).toBe(2);
    expect(roundHalfUp(-2.5)).toBe(-3);
    expect(Object.is(roundHalfUp(-0.2), 0)).toBe(true);
  });

  it('absorbs binary noise: 1.005 is 101 cents, 1015 x 0.3 is 305', () => {
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(multiplyMinor(1015, 0.3)).toBe(305);
    expect(multiplyMinor(1005, 0.1)).toBe(101);
  });

  it('does not round large amounts up by the tolerance', () => {
    expect(roundHalfUp(123_456_789_012.4)).toBe(123_456_789_012);
    expect(roundHalfUp(123_456_789_012.5)).toBe(123_456_789_013);
  });

  it('edge conversion uses the currency digits', () => {
    expect(toMinor(12.5, 'USD')).toBe(1250);
    expect(toMinor(1894.5, 'JPY')).toBe(1895);
    expect(toMinor(1.2345, 'BHD')).toBe(1235);
    expect(fromMinor(1999, 'USD')).toBe(19.99);
    expect(fromMinor(1894, 'JPY')).toBe(1894);
    expect(fromMinor(1235, 'BHD')).toBe(1.235);
  });

  it('allocateMinor keeps the total exact and spreads the remainder by largest remainder', () => {
    expect(allocateMinor(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateMinor(1000, [3, 7])).toEqual([300, 700]);
    expect(allocateMinor(5, [0, 0])).toEqual([5, 0]);
    const parts = allocateMinor(9_999, [0.12, 0.5, 0.38, 0.001]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(9_999);
    expect(() => allocateMinor(1.5, [1])).toThrow(RangeError);
  });
});
