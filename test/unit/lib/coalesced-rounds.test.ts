// The coalesced-wake loop the outbox and notification dispatchers share: wake-ups share a round, a wake during a round runs one more, stop waits.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoalescedRounds } from '../../../src/lib/coalesced-rounds.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

function loop(options: { active?: () => boolean; round?: () => Promise<void> } = {}) {
  const calls = { rounds: 0, errors: [] as unknown[] };
  const rounds = new CoalescedRounds({
    round: async () => {
      calls.rounds += 1;
      await options.round?.();
    },
    onError: (err) => calls.errors.push(err),
    pollMs: 60_000,
    coalesceMs: 20,
    active: options.active,
  });
  return { rounds, calls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('coalesced rounds', () => {
  it('wake-ups within the window share one round', async () => {
    const { rounds, calls } = loop();
    rounds.start();
    for (let i = 0; i < 5; i++) rounds.wake();
    await vi.advanceTimersByTimeAsync(25);
    expect(calls.rounds).toBe(1);
    await rounds.stop();
  });

  it('wakes during a round run one more round after it, not one each', async () => {
    const gate = deferred();
    let first = true;
    const { rounds, calls } = loop({
      round: async () => {
        if (first) {
          first = false;
          await gate.promise;
        }
      },
    });
    rounds.start();
    await vi.advanceTimersByTimeAsync(25);
    expect(calls.rounds).toBe(1);
    rounds.wake();
    rounds.wake();
    gate.resolve();
    await vi.advanceTimersByTimeAsync(25);
    expect(calls.rounds).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.rounds).toBe(2);
    await rounds.stop();
  });

  it('rounds are skipped while inactive; a failing round is reported and the loop goes on', async () => {
    let active = false;
    const { rounds, calls } = loop({
      active: () => active,
      round: async () => {
        throw new Error('database down');
      },
    });
    rounds.start();
    await vi.advanceTimersByTimeAsync(25);
    expect(calls.rounds).toBe(0);
    active = true;
    rounds.wake();
    await vi.advanceTimersByTimeAsync(25);
    rounds.wake();
    await vi.advanceTimersByTimeAsync(25);
    expect(calls.rounds).toBe(2);
    expect(calls.errors).toHaveLength(2);
    await rounds.stop();
  });

  it('stop waits for the round under way; after it nothing wakes a round', async () => {
    const gate = deferred();
    const { rounds, calls } = loop({ round: () => gate.promise });
    rounds.start();
    await vi.advanceTimersByTimeAsync(25);
    let stopped = false;
    const stop = rounds.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    gate.resolve();
    await stop;
    rounds.wake();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls.rounds).toBe(1);
    expect(rounds.started).toBe(false);
  });
});
