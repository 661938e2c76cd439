// Contract 14's limits on simulations: one caller runs at most 2 at a time and starts at most 20 per minute (429 with
// Retry-After); another caller is not held back; a slot given back lets the caller in again.
import { describe, expect, it } from 'vitest';
import { SimulationGate } from '../../../src/orders/flow-trial/simulation-gate.js';

const T = 1_800_000_000_000;

describe('SimulationGate', () => {
  it('a third simulation of the same caller at once is refused with 429 and Retry-After 1; another caller runs; a release lets the first in again', async () => {
    const gate = new SimulationGate();
    const a1 = await gate.admit('person:a', T);
    await gate.admit('person:a', T);
    await expect(gate.admit('person:a', T)).rejects.toMatchObject({ kind: 'throttled', details: { retryAfterSeconds: 1 }, message: expect.stringContaining('at most 2 per caller') });
    await expect(gate.admit('person:b', T)).resolves.toBeTypeOf('function');
    a1();
    await expect(gate.admit('person:a', T)).resolves.toBeTypeOf('function');
    expect(gate.active).toBe(3);
  });

  it('the 21st start in a minute is refused (its slot given back), and allowed again once the minute has passed', async () => {
    const gate = new SimulationGate();
    for (let i = 0; i < 20; i++) (await gate.admit('token:t', T + i))();
    const refused = await gate.admit('token:t', T + 30_000).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'throttled', message: expect.stringContaining('at most 20 per 60 seconds'), details: { retryAfterSeconds: 30 } });
    expect(gate.active).toBe(0);
    await expect(gate.admit('token:t', T + 60_001)).resolves.toBeTypeOf('function');
  });
});
