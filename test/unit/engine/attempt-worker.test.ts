// The shared attempt worker's rules alone (webhooks, notifications and A2A push run on it): the retry schedule, the claim
// committed before the send and the result recorded after it, a throwing send retried, a crash redone with the same id, a stop.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../../../src/db/db.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { TimerIndexEntry } from '../../../src/engine/scheduler/timer-index.js';
import type { NewTimer } from '../../../src/engine/scheduler/timer-store.js';
import { attemptTimerId, GUARD_MARGIN_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS, type AttemptTimerKind } from '../../../src/engine/outbox/attempt-schedule.js';
import {
  AttemptWorker,
  UNRECORDED_ERROR,
  type AttemptDb,
  type AttemptResult,
  type AttemptSink,
  type RecordedAttempt,
} from '../../../src/engine/outbox/attempt-worker.js';

/** The durable timers in memory, with the semantics of timer-store.ts for the calls the worker makes. */
interface MemoryTimer {
  id: string;
  dueAt: number;
  payload: unknown;
  fired: boolean;
  cancelled: boolean;
}
const timers = vi.hoisted(() => new Map<string, MemoryTimer>());

vi.mock('../../../src/engine/scheduler/timer-store.js', () => ({
  getTimer: async (_q: Queryable, id: string) => timers.get(id) ?? null,
  schedule: async (_q: Queryable, t: NewTimer) => {
    if (timers.has(t.id)) return false;
    timers.set(t.id, { id: t.id, dueAt: t.dueAt, payload: t.payload, fired: false, cancelled: false });
    return true;
  },
  claimAttemptTimer: async (_q: Queryable, id: string, via: 'direct' | 'timer', now: number) => {
    const t = timers.get(id);
    if (via === 'timer' && (!t || t.fired || t.cancelled || t.dueAt > now)) return false;
    const marked = Boolean(t && !t.fired);
    if (t) t.fired = true;
    return marked || via === 'timer';
  },
  cancel: async (_q: Queryable, id: string) => {
    const t = timers.get(id);
    if (!t || t.fired || t.cancelled) return false;
    t.cancelled = true;
    return true;
  },
  reschedule: async (_q: Queryable, id: string, dueAt: number) => {
    const t = timers.get(id);
    if (!t || t.fired || t.cancelled) return false;
    t.dueAt = dueAt;
    return true;
  },
}));

const TIMER: AttemptTimerKind = { kind: 'test.delivery', idKey: 'rowId' };
const TIMEOUT_MS = 1_000;

interface Row {
  id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
}

/** What a send sees: the row as the claim left it, and whether the next guard timer was there already. */
interface Sent {
  id: string;
  attempt: number;
  at: number;
  guardScheduled: boolean;
}

/** A sink over rows in memory whose send is the test's to decide. */
class MemorySink implements AttemptSink<Row, Row> {
  readonly label = 'test delivery';
  readonly timer = TIMER;
  readonly rows = new Map<string, Row>();
  readonly sent: Sent[] = [];
  readonly outcomes: string[] = [];
  answer: (row: Row) => Promise<AttemptResult> = async () => ({ ok: true, error: null });

  constructor(private readonly clock: ManualClock) {}

  async lock(_tx: Queryable, id: string): Promise<Row | null> {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }
  async begin(_tx: Queryable, row: Row, n: number): Promise<Row> {
    this.rows.set(row.id, { ...row, attempts: n });
    return { ...row, attempts: n };
  }
  async send(row: Row): Promise<AttemptResult> {
    const guard = timers.get(attemptTimerId(row.id, row.attempts + 1));
    this.sent.push({ id: row.id, attempt: row.attempts, at: this.clock.now(), guardScheduled: Boolean(guard && !guard.fired && !guard.cancelled) });
    return this.answer(row);
  }
  async record(_tx: Queryable, { row, outcome, error }: RecordedAttempt<Row>): Promise<void> {
    const status = outcome === 'delivered' ? 'delivered' : outcome === 'failed' ? 'failed' : 'pending';
    this.rows.set(row.id, { ...row, status, lastError: outcome === 'delivered' ? null : error });
  }
  async failUnrecorded(_tx: Queryable, row: Row): Promise<void> {
    this.rows.set(row.id, { ...row, status: 'failed', lastError: row.lastError ?? UNRECORDED_ERROR });
  }
  recorded(outcome: string, attempt: number): void {
    this.outcomes.push(`${attempt}:${outcome}`);
  }
}

const noSql = (): never => {
  throw new Error('the worker itself runs no SQL here');
};
const db: AttemptDb = { query: async () => noSql(), tx: (fn) => fn({ query: async () => noSql() }) };

function setUp() {
  const clock = new ManualClock(1_000_000);
  const sink = new MemorySink(clock);
  const indexed: TimerIndexEntry[] = [];
  const worker = new AttemptWorker(
    { db, clock, logger: createLogger('silent'), timeoutMs: TIMEOUT_MS, notify: async (entries) => void indexed.push(...entries) },
    sink,
  );
  /** A row as its writer commits it: pending, with the guard timer of its first attempt. */
  const write = (id: string) => {
    sink.rows.set(id, { id, status: 'pending', attempts: 0, lastError: null });
    const guardDueAt = clock.now() + TIMEOUT_MS + GUARD_MARGIN_MS;
    timers.set(attemptTimerId(id, 1), { id: attemptTimerId(id, 1), dueAt: guardDueAt, payload: { rowId: id, attempt: 1 }, fired: false, cancelled: false });
    return { id, guardDueAt };
  };
  /** Moves the clock to the next pending timer and fires it, as the scheduler would. */
  const fireNext = async () => {
    const next = [...timers.values()].filter((t) => !t.fired && !t.cancelled).sort((a, b) => a.dueAt - b.dueAt)[0];
    if (!next) return null;
    clock.set(Math.max(clock.now(), next.dueAt));
    await worker.fireTimer(next.id);
    return next;
  };
  return { clock, sink, worker, write, fireNext, indexed };
}

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

beforeEach(() => timers.clear());

describe('the shared attempt worker', () => {
  it('retry schedule: a send that keeps failing is made 6 times, 10, 20, 40, 80 and 160 s after each failure, then the row is failed', async () => {
    const { clock, sink, worker, write, fireNext } = setUp();
    sink.answer = async () => ({ ok: false, status: 500, error: 'HTTP 500' });
    const start = clock.now();
    worker.firstAttempts([write('r1')]);
    await worker.idle();
    while (await fireNext());
    expect(sink.sent.map((s) => s.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    const gaps = sink.sent.slice(1).map((s, i) => s.at - sink.sent[i].at);
    expect(gaps).toEqual([...RETRY_DELAYS_MS]);
    expect(sink.sent[0].at).toBe(start);
    expect(sink.rows.get('r1')).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 500' });
    expect(sink.outcomes).toEqual(['1:retry', '2:retry', '3:retry', '4:retry', '5:retry', '6:failed']);
    // The guard after the last attempt is cancelled: nothing is left to fire.
    expect(timers.get(attemptTimerId('r1', MAX_ATTEMPTS + 1))?.cancelled).toBe(true);
  });

  it('record after send: the claim (attempts = n, the guard of n + 1) is in place before the send; the outcome is recorded after it', async () => {
    const { sink, worker, write, indexed } = setUp();
    const answer = deferred<AttemptResult>();
    sink.answer = () => answer.promise;
    const { guardDueAt } = write('r1');
    worker.firstAttempts([{ id: 'r1', guardDueAt }]);
    await vi.waitFor(() => expect(sink.sent).toHaveLength(1));
    expect(sink.sent[0]).toMatchObject({ attempt: 1, guardScheduled: true });
    expect(sink.rows.get('r1')).toMatchObject({ status: 'pending', attempts: 1 });
    // The first attempt's guard and the next one's are indexed for the scheduler.
    expect(indexed.map((e) => e.id)).toEqual([attemptTimerId('r1', 1), attemptTimerId('r1', 2)]);
    answer.resolve({ ok: true, status: 204, error: null });
    await worker.idle();
    expect(sink.rows.get('r1')).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(timers.get(attemptTimerId('r1', 2))?.cancelled).toBe(true);
  });

  it('a send that throws is an attempt that failed: its error is kept and it is retried 10 s later', async () => {
    const { clock, sink, worker, write, fireNext } = setUp();
    let calls = 0;
    sink.answer = async () => {
      calls += 1;
      if (calls === 1) throw new Error('socket hang up');
      return { ok: true, error: null };
    };
    worker.firstAttempts([write('r1')]);
    await worker.idle();
    expect(sink.rows.get('r1')).toMatchObject({ status: 'pending', attempts: 1, lastError: 'socket hang up' });
    const first = clock.now();
    await fireNext();
    expect(sink.sent.map((s) => s.attempt)).toEqual([1, 2]);
    expect(sink.sent[1].at - first).toBe(RETRY_DELAYS_MS[0]);
    expect(sink.rows.get('r1')).toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
  });

  it('a crash between send and record: the guard timer makes the attempt again for the same row; after the last attempt the row is failed', async () => {
    const { sink, worker, write } = setUp();
    sink.answer = () => new Promise<AttemptResult>(() => undefined); // the process died mid-send: no result ever comes
    worker.firstAttempts([write('r1')]);
    await vi.waitFor(() => expect(sink.sent).toHaveLength(1));
    // A restarted process (a new worker over the same rows and timers) fires the guard.
    const restarted = setUp();
    for (const [id, row] of sink.rows) restarted.sink.rows.set(id, row);
    await restarted.fireNext();
    expect(restarted.sink.sent).toEqual([expect.objectContaining({ id: 'r1', attempt: 2 })]);
    expect(restarted.sink.rows.get('r1')).toMatchObject({ status: 'delivered', attempts: 2 });
    // The same crash after the sixth attempt: its guard fails the row instead of a seventh send.
    restarted.sink.rows.set('r6', { id: 'r6', status: 'pending', attempts: MAX_ATTEMPTS, lastError: null });
    const guard = attemptTimerId('r6', MAX_ATTEMPTS + 1);
    timers.set(guard, { id: guard, dueAt: restarted.clock.now(), payload: { rowId: 'r6', attempt: MAX_ATTEMPTS + 1 }, fired: false, cancelled: false });
    await restarted.worker.fireTimer(guard);
    expect(restarted.sink.sent.map((s) => s.id)).toEqual(['r1']);
    expect(restarted.sink.rows.get('r6')).toMatchObject({ status: 'failed', lastError: UNRECORDED_ERROR });
  });

  it('a timer claims its attempt once: one already made, or a retry not due yet, makes nothing', async () => {
    const { sink, worker, write } = setUp();
    sink.answer = async () => ({ ok: false, status: 503, error: 'HTTP 503' });
    worker.firstAttempts([write('r1')]);
    await worker.idle();
    await worker.fireTimer(attemptTimerId('r1', 1));
    await worker.attempt('r1', 1, 'direct');
    await worker.fireTimer(attemptTimerId('r1', 2));
    expect(sink.sent).toHaveLength(1);
    expect(sink.rows.get('r1')).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('first attempts of one chain go out one after another, in the order handed over', async () => {
    const { sink, worker, write } = setUp();
    const first = deferred<AttemptResult>();
    sink.answer = (row) => (row.id === 'a1' ? first.promise : Promise.resolve({ ok: true, error: null }));
    worker.firstAttempts([
      { ...write('a1'), chain: 'sub|order' },
      { ...write('a2'), chain: 'sub|order' },
      { ...write('b1'), chain: 'other' },
    ]);
    await vi.waitFor(() => expect(sink.sent.map((s) => s.id)).toEqual(['a1', 'b1']));
    first.resolve({ ok: true, error: null });
    await worker.idle();
    expect(sink.sent.map((s) => s.id)).toEqual(['a1', 'b1', 'a2']);
  });

  it('a stop waits for the first attempt in flight, and no longer than its grace for one that hangs', async () => {
    const { sink, worker, write } = setUp();
    const answer = deferred<AttemptResult>();
    sink.answer = () => answer.promise;
    worker.firstAttempts([write('r1')]);
    await vi.waitFor(() => expect(sink.sent).toHaveLength(1));
    let stopped = false;
    const stop = worker.stop(60_000).then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    answer.resolve({ ok: true, error: null });
    await stop;
    expect(sink.rows.get('r1')?.status).toBe('delivered');
    // Stopped: rows handed over now wait for their guard timers.
    worker.firstAttempts([write('r2')]);
    await worker.idle();
    expect(sink.sent.map((s) => s.id)).toEqual(['r1']);

    const hanging = setUp();
    hanging.sink.answer = () => new Promise<AttemptResult>(() => undefined);
    hanging.worker.firstAttempts([hanging.write('h1')]);
    await vi.waitFor(() => expect(hanging.sink.sent).toHaveLength(1));
    const before = Date.now();
    await hanging.worker.stop(50);
    expect(Date.now() - before).toBeLessThan(1_000);
  });
});
