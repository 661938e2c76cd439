// MemoryTimerIndex internals: heap order under random operations, lazy deletion and compaction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryTimerIndex } from '../../../src/engine/scheduler/memory-timer-index.js';

/** The reference model: a plain map, claimed by sorting on (dueAt, id). */
function modelClaim(model: Map<string, number>, now: number, limit: number): string[] {
  const due = [...model]
    .filter(([, dueAt]) => dueAt <= now)
    .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([id]) => id);
  for (const id of due) model.delete(id);
  return due;
}

const op = fc.oneof(
  fc.record({ t: fc.constant('add' as const), id: fc.integer({ min: 0, max: 30 }), dueAt: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ t: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ t: fc.constant('claim' as const), now: fc.integer({ min: 0, max: 60 }), limit: fc.integer({ min: 0, max: 8 }) }),
);

describe('MemoryTimerIndex', () => {
  it('matches a sorted-map model under any sequence of add, remove and claim', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 120 }), async (ops) => {
        const index = new MemoryTimerIndex();
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.t === 'add') {
            await index.add([{ id: `t${o.id}`, dueAt: o.dueAt }]);
            model.set(`t${o.id}`, o.dueAt);
          } else if (o.t === 'remove') {
            await index.remove([`t${o.id}`]);
            model.delete(`t${o.id}`);
          } else {
            expect(await index.claimDue(o.now, o.limit)).toEqual(modelClaim(model, o.now, o.limit));
          }
          expect(await index.size()).toBe(model.size);
          const next = model.size === 0 ? null : Math.min(...model.values());
          expect(await index.nextDueAt()).toBe(next);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('pops a large shuffled set in due order', async () => {
    const index = new MemoryTimerIndex();
    const dues = Array.from({ length: 5_000 }, (_, i) => (i * 7919) % 5_000);
    await index.add(dues.map((dueAt) => ({ id: `id-${String(dueAt).padStart(4, '0')}`, dueAt })));
    const claimed = await index.claimDue(5_000, 10_000);
    expect(claimed).toHaveLength(5_000);
    expect(claimed).toEqual([...claimed].sort());
  });

  it('stays correct after most entries are removed (stale entries compacted away)', async () => {
    const index = new MemoryTimerIndex();
    await index.add(Array.from({ length: 4_000 }, (_, i) => ({ id: `r${i}`, dueAt: i })));
    await index.remove(Array.from({ length: 3_990 }, (_, i) => `r${i}`));
    // Re-adding moved entries leaves stale heap slots behind as well.
    await index.add([{ id: 'r3999', dueAt: 1 }]);
    expect(await index.size()).toBe(10);
    expect(await index.nextDueAt()).toBe(1);
    expect(await index.claimDue(10_000, 100)).toEqual([
      'r3999', 'r3990', 'r3991', 'r3992', 'r3993', 'r3994', 'r3995', 'r3996', 'r3997', 'r3998',
    ]);
  });

  it('reports kind memory and stays healthy', async () => {
    const index = new MemoryTimerIndex();
    expect(index.kind).toBe('memory');
    expect(await index.healthy()).toBe(true);
  });
});
