// The concurrency gate: at most `perKey` runs per key and `total` in all, a bounded queue, waiters admitted in order.
import { describe, expect, it } from 'vitest';
import { ConcurrencyGate, type Release } from '../../../src/lib/concurrency-gate.js';

const settle = () => new Promise((r) => setImmediate(r));

describe('ConcurrencyGate', () => {
  it('admits at most perKey runs of one key; the next waits and enters when one is released', async () => {
    const gate = new ConcurrencyGate({ perKey: 2, total: 10, waiting: 10 });
    const a = await gate.enter('a');
    await gate.enter('a');
    let third: Release | null = null;
    void gate.enter('a').then((r) => (third = r));
    await settle();
    expect(third).toBeNull();
    expect(gate.active).toBe(2);
    // Another key is not held back by a's queue.
    expect(await gate.enter('b')).toBeTypeOf('function');
    a!();
    a!(); // a second release is harmless
    await settle();
    expect(third).toBeTypeOf('function');
    expect(gate.active).toBe(3);
  });

  it('admits at most total runs in all, and refuses at once (null) past the bounded queue', async () => {
    const gate = new ConcurrencyGate({ perKey: 4, total: 16, waiting: 3 });
    const held = await Promise.all(Array.from({ length: 16 }, (_, i) => gate.enter(`k${i % 4}`)));
    expect(held.every((r) => typeof r === 'function')).toBe(true);
    const queued = [gate.enter('x'), gate.enter('y'), gate.enter('z')];
    expect(await gate.enter('w')).toBeNull();
    for (const r of held.slice(0, 3)) r!();
    expect((await Promise.all(queued)).every((r) => typeof r === 'function')).toBe(true);
    expect(gate.active).toBe(16);
  });
});
