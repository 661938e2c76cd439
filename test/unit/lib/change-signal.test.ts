// ChangeSignal and InFlight: the small waiting helpers the delivery workers and the A2A followers share.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangeSignal } from '../../../src/lib/change-signal.js';
import { InFlight } from '../../../src/lib/in-flight.js';

describe('ChangeSignal', () => {
  // Fake timers: a wait that returns without the clock moving returned at once; none of these tests sleeps.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a change before the wait is not lost: the wait returns at once and clears it', async () => {
    const signal = new ChangeSignal();
    signal.notify();
    await signal.wait(10_000);
    let second = false;
    const waiting = signal.wait(10_000).then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false); // cleared: the next wait sleeps
    await vi.advanceTimersByTimeAsync(10_000);
    await waiting;
  });

  it('a change during the wait wakes it; with none it returns at the deadline', async () => {
    const signal = new ChangeSignal();
    let woke = false;
    const waiting = signal.wait(10_000).then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    signal.notify();
    await waiting;
    expect(woke).toBe(true);
    const late = signal.wait(5_000); // nothing changed: the deadline ends it
    await vi.advanceTimersByTimeAsync(5_000);
    await late;
  });

  it('started as changed, the first wait returns at once', async () => {
    await new ChangeSignal(true).wait(10_000);
  });
});

describe('InFlight', () => {
  it('idle waits for tracked work; a rejection goes to onError, not unhandled', async () => {
    const inFlight = new InFlight();
    const errors: unknown[] = [];
    let done = false;
    inFlight.track(new Promise((r) => setTimeout(r, 10)).then(() => (done = true)), (e) => errors.push(e));
    inFlight.track(Promise.reject(new Error('boom')), (e) => errors.push(e));
    await inFlight.idle();
    expect(done).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('settleWithin stops waiting at the grace period for work that hangs', async () => {
    const inFlight = new InFlight();
    inFlight.track(new Promise(() => undefined), () => undefined);
    await inFlight.settleWithin(10);
  });
});
