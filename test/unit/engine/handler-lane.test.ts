// Handler-kind timers run beside the scheduler's slots (issue "Resilience": slow receivers never block order timers).
import { describe, expect, it } from 'vitest';
import { HandlerLane } from '../../../src/engine/scheduler/handler-lane.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('handler lane', () => {
  it('submit returns while the run is still going (the scheduler slot is free again)', async () => {
    const lane = new HandlerLane(10, () => undefined);
    const d = deferred();
    let returned = false;
    await lane.submit('t1', () => d.promise).then(() => (returned = true));
    expect(returned).toBe(true);
    expect(lane.size).toBe(1);
    d.resolve();
    await lane.drain(1_000);
    expect(lane.size).toBe(0);
  });

  it('an id already running is not started a second time (a sweep re-adding it before its claim commits)', async () => {
    const lane = new HandlerLane(10, () => undefined);
    const d = deferred();
    let runs = 0;
    const run = () => {
      runs += 1;
      return d.promise;
    };
    await lane.submit('t1', run);
    await lane.submit('t1', run);
    expect(runs).toBe(1);
    d.resolve();
    await lane.drain(1_000);
    await lane.submit('t1', async () => void (runs += 1));
    expect(runs).toBe(2);
  });

  it('past its limit, submit waits for the run (back-pressure on the scheduler)', async () => {
    const lane = new HandlerLane(1, () => undefined);
    const first = deferred();
    const second = deferred();
    await lane.submit('a', () => first.promise);
    let secondReturned = false;
    const p = lane.submit('b', () => second.promise).then(() => (secondReturned = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(secondReturned).toBe(false);
    second.resolve();
    await p;
    expect(secondReturned).toBe(true);
    first.resolve();
  });

  it('a failing run is reported, not thrown at the scheduler', async () => {
    const errors: string[] = [];
    const lane = new HandlerLane(10, (err, id) => errors.push(`${id}: ${(err as Error).message}`));
    await lane.submit('t1', async () => {
      throw new Error('receiver reset');
    });
    await lane.drain(1_000);
    expect(errors).toEqual(['t1: receiver reset']);
  });

  it('drain waits at most its grace for a run that hangs', async () => {
    const lane = new HandlerLane(10, () => undefined);
    await lane.submit('hang', () => new Promise<void>(() => undefined));
    const started = Date.now();
    await lane.drain(100);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
