// Contract suite every TimerIndex implementation must pass (DESIGN rule 6: ports have contract tests).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimerIndex } from '../../../src/engine/scheduler/timer-index.js';

export interface TimerIndexContractOptions {
  /**
   * Another handle on the same index (for Redis: a second connection with the same key prefix),
   * so concurrent claimers really race. Defaults to the same instance.
   */
  peer?: (index: TimerIndex) => Promise<TimerIndex>;
}

/** A realistic epoch-ms base, so precision of large scores is exercised too. */
const T0 = 1_767_225_600_000;

/** Registers the TimerIndex contract for one implementation; `make` returns a fresh, empty index. */
export function describeTimerIndexContract(
  name: string,
  make: () => Promise<TimerIndex>,
  options: TimerIndexContractOptions = {},
): void {
  describe(`TimerIndex contract: ${name}`, () => {
    let index: TimerIndex;
    const extra: TimerIndex[] = [];

    beforeEach(async () => {
      index = await make();
    });

    afterEach(async () => {
      for (const peer of extra.splice(0)) if (peer !== index) await peer.close();
      await index.clear();
      await index.close();
    });

    it('starts empty', async () => {
      expect(await index.size()).toBe(0);
      expect(await index.nextDueAt()).toBeNull();
      expect(await index.claimDue(T0 + 1e9, 10)).toEqual([]);
      expect(await index.healthy()).toBe(true);
    });

    it('claims in due order, ties broken by id', async () => {
      await index.add([
        { id: 'c', dueAt: T0 + 30 },
        { id: 'b2', dueAt: T0 + 10 },
        { id: 'a', dueAt: T0 + 20 },
        { id: 'b1', dueAt: T0 + 10 },
        { id: 'late', dueAt: T0 - 5_000 },
      ]);
      expect(await index.claimDue(T0 + 100, 100)).toEqual(['late', 'b1', 'b2', 'a', 'c']);
      expect(await index.size()).toBe(0);
    });

    it('claims only timers that are due, and at most limit of them', async () => {
      await index.add([
        { id: 't1', dueAt: T0 + 100 },
        { id: 't2', dueAt: T0 + 200 },
        { id: 't3', dueAt: T0 + 300 },
      ]);
      expect(await index.claimDue(T0 + 99, 10)).toEqual([]);
      expect(await index.claimDue(T0 + 200, 1)).toEqual(['t1']);
      expect(await index.claimDue(T0 + 200, 0)).toEqual([]);
      expect(await index.claimDue(T0 + 200, 10)).toEqual(['t2']);
      expect(await index.claimDue(T0 + 200, 10)).toEqual([]);
      expect(await index.size()).toBe(1);
      expect(await index.nextDueAt()).toBe(T0 + 300);
    });

    it('gives each of 1,000 ids to exactly one of 20 concurrent claimers', async () => {
      const ids = Array.from({ length: 1_000 }, (_, i) => `timer-${i}`);
      await index.add(ids.map((id, i) => ({ id, dueAt: T0 + ((i * 7919) % 1_000) })));
      const claimers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const handle = options.peer ? await options.peer(index) : index;
          if (handle !== index) extra.push(handle);
          return handle;
        }),
      );
      const perClaimer = await Promise.all(
        claimers.map(async (handle) => {
          const got: string[] = [];
          for (;;) {
            const batch = await handle.claimDue(T0 + 1_000, 7);
            if (batch.length === 0) return got;
            got.push(...batch);
          }
        }),
      );
      const all = perClaimer.flat();
      expect(all).toHaveLength(1_000);
      expect(new Set(all).size).toBe(1_000);
      expect(new Set(all)).toEqual(new Set(ids));
      expect(await index.size()).toBe(0);
    });

    it('removes ids so they are never claimed; unknown ids are ignored', async () => {
      await index.add([
        { id: 'keep', dueAt: T0 + 2 },
        { id: 'drop', dueAt: T0 + 1 },
      ]);
      await index.remove(['drop', 'never-added']);
      expect(await index.size()).toBe(1);
      expect(await index.nextDueAt()).toBe(T0 + 2);
      expect(await index.claimDue(T0 + 10, 10)).toEqual(['keep']);
      await index.remove([]);
    });

    it('adds idempotently: the same id is held and claimed once, a re-add moves it', async () => {
      await index.add([{ id: 'x', dueAt: T0 + 50 }]);
      await index.add([{ id: 'x', dueAt: T0 + 50 }]);
      expect(await index.size()).toBe(1);
      await index.add([{ id: 'x', dueAt: T0 + 500 }]);
      expect(await index.size()).toBe(1);
      expect(await index.claimDue(T0 + 100, 10)).toEqual([]);
      expect(await index.nextDueAt()).toBe(T0 + 500);
      expect(await index.claimDue(T0 + 500, 10)).toEqual(['x']);
      expect(await index.claimDue(T0 + 500, 10)).toEqual([]);
      await index.add([]);
    });

    it('reports the earliest due time, following claims and removals', async () => {
      await index.add([
        { id: 'p', dueAt: T0 + 3 },
        { id: 'q', dueAt: T0 + 1 },
        { id: 'r', dueAt: T0 + 2 },
      ]);
      expect(await index.nextDueAt()).toBe(T0 + 1);
      await index.claimDue(T0 + 1, 10);
      expect(await index.nextDueAt()).toBe(T0 + 2);
      await index.remove(['r']);
      expect(await index.nextDueAt()).toBe(T0 + 3);
      await index.remove(['p']);
      expect(await index.nextDueAt()).toBeNull();
    });

    it('clears everything', async () => {
      await index.add(Array.from({ length: 50 }, (_, i) => ({ id: `c${i}`, dueAt: T0 + i })));
      expect(await index.size()).toBe(50);
      await index.clear();
      expect(await index.size()).toBe(0);
      expect(await index.claimDue(T0 + 1e9, 100)).toEqual([]);
    });
  });
}
