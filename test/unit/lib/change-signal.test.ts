// ChangeSignal and InFlight: the small waiting helpers the delivery workers and the A2A followers share.
import { describe, expect, it } from 'vitest';
import { ChangeSignal } from '../../../src/lib/change-signal.js';
import { InFlight } from '../../../src/lib/in-flight.js';

describe('ChangeSignal', () => {
  it('a change before the wait is not lost: the wait returns at once and clears it', async () => {
    const signal = new ChangeSignal();
    signal.notify();
    const started = performance.now();
    await signal.wait(10_000);
    expect(performance.now() - started).toBeLessThan(1_000);
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
    await signal.wait(5); // nothing changed: the deadline ends it
  });

  it('started as changed, the first wait returns at once', async () => {
    const started = performance.now();
    await new ChangeSignal(true).wait(10_000);
    expect(performance.now() - started).toBeLessThan(1_000);
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
