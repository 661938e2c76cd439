// Unit tests for meta.simulate parsing (runtime-contract section 7: known switches; unknown is a 400).
import { describe, expect, it } from 'vitest';
import { isSimulated, parseSimulate, simulateSchema, simulateSwitches } from '../../../src/domain/simulate.js';

describe('runtime-contract 7: meta.simulate is a string or a list of known switches', () => {
  it('accepts one switch as a string', () => {
    const r = parseSimulate('card_declined');
    expect(r.ok && [...r.switches]).toEqual(['card_declined']);
  });

  it('accepts a list of switches and dedupes them', () => {
    const r = parseSimulate(['high_risk', 'ship_error', 'high_risk']);
    expect(r.ok && [...r.switches].sort()).toEqual(['high_risk', 'ship_error']);
  });

  it('absent is no switch', () => {
    const r = parseSimulate(undefined);
    expect(r.ok && r.switches.size).toBe(0);
  });

  it('an unknown value is an issue naming its path', () => {
    const r = parseSimulate(['high_risk', 'explode']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ path: 'meta.simulate.1', message: expect.stringContaining('"explode"') }]);
    expect(parseSimulate(42).ok).toBe(false);
  });

  it('the zod schema agrees', () => {
    expect(simulateSchema.safeParse('refund_error').success).toBe(true);
    expect(simulateSchema.safeParse(['capture_error', 'out_of_stock']).success).toBe(true);
    expect(simulateSchema.safeParse('nope').success).toBe(false);
    expect(simulateSchema.safeParse(['ship_error', 'nope']).success).toBe(false);
  });

  it('steps read switches from meta leniently', () => {
    expect(isSimulated({ simulate: 'out_of_stock' }, 'out_of_stock')).toBe(true);
    expect(isSimulated({ simulate: ['ship_error'] }, 'out_of_stock')).toBe(false);
    expect(simulateSwitches(null).size).toBe(0);
  });
});
