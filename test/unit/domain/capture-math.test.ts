// Unit tests for capture amounts (spec "Payout computation": capture takes the lesser of authorization and re-totaled order, releases the rest).
import { describe, expect, it } from 'vitest';
import { computeCapture } from '../../../src/domain/capture-math.js';

describe('capture = min(authorized, re-totaled total); released = authorized - captured', () => {
  it('partial acceptance captures the smaller re-total and releases the remainder', () => {
    expect(computeCapture(10_000, 6_499)).toEqual({ captured: 6_499, released: 3_501 });
  });
  it('full acceptance captures everything, releases nothing', () => {
    expect(computeCapture(10_000, 10_000)).toEqual({ captured: 10_000, released: 0 });
  });
  it('never captures more than was authorized', () => {
    expect(computeCapture(5_000, 7_000)).toEqual({ captured: 5_000, released: 0 });
  });
  it('rejects non-integer or negative amounts', () => {
    expect(() => computeCapture(10.5, 1)).toThrow(RangeError);
    expect(() => computeCapture(10, -1)).toThrow(RangeError);
  });
});
