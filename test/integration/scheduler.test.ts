// Durable timers against real PostgreSQL (and Redis when TEST_REDIS_URL is set): store rules and the Scheduler.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { ManualClock } from '../../src/platform/clock.js';
import { MemoryTimerIndex } from '../../src/engine/scheduler/memory-timer-index.js';
import { RedisTimerIndex } from '../../src/engine/scheduler/redis-timer-index.js';
import { Scheduler, type SchedulerLogger, type SchedulerOptions } from '../../src/engine/scheduler/scheduler.js';
import type { TimerIndex } from '../../src/engine/scheduler/timer-index.js';
import {
  cancel,
  cancelForOrder,
  claimForFiring,
  dueWithin,
  earliestDue,
  getTimer,
  leaseDue,
  markFired,
  schedule,
} from '../../src/engine/scheduler/timer-store.js';
import { createTestDatabase } from '../support/test-db.js';

const T0 = 1_767_225_600_000;
const redisUrl = process.env.TEST_REDIS_URL;

let db: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
});

afterAll(async () => {
  await drop?.();
});

/** A fresh id namespace per test, so tests sharing the database never see each other's timers. */
function ns(): (n: number | string) => string {
  const p = randomUUID().slice(0, 8);
  return (n) => `${p}-${n}`;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A scheduler logger that keeps warnings and errors, so a failing test says what went wrong. */
function collectingLogger(into: string[]): SchedulerLogger {
  const keep = (obj: object, msg?: string) => into.push(`${msg}: ${String((obj as { err?: unknown }).err)}`);
  return { info: () => undefined, warn: keep, error: keep };
}

/** Retires timers left pending by earlier tests, so a starting scheduler sees only this test's timers. */
async function retirePendingTimers(): Promise<void> {
  await db.query('UPDATE timers SET cancelled_at = $1 WHERE fired_at IS NULL AND cancelled_at IS NULL', [T0 - 1]);
}

/**
 * Stands in for the runtime's fire callback: claims the row in its own transaction and marks
 * it fired. `calls` counts every call, `effective` only those that took effect.
 */
function recordingFire(clock: ManualClock, options: { failFirst?: Set<string> } = {}) {
  const calls = new Map<string, number>();
  const effective = new Map<string, number>();
  const fire = async (id: string) => {
    calls.set(id, (calls.get(id) ?? 0) + 1);
    if (options.failFirst?.delete(id)) throw new Error(`transient failure for ${id}`);
    await db.tx(async (c) => {
      const row = await claimForFiring(c, id, clock.now());
      if (!row) return;
      await markFired(c, id, clock.now());
      effective.set(id, (effective.get(id) ?? 0) + 1);
    });
  };
  return { fire, calls, effective };
}

describe('timer store (PostgreSQL is the source of truth)', () => {
  it('keeps SQL time out of the migration: every timestamp comes from the Clock', () => {
    const sql = readFileSync(new URL('../../src/db/migrations/0002_timers.sql', import.meta.url), 'utf8');
    const code = sql.replace(/--.*$/gm, '').toLowerCase();
    expect(code).toContain('create table timers');
    expect(code).not.toMatch(/now\(\)|current_timestamp|clock_timestamp/);
  });

  it('schedules idempotently on id and keeps every column', async () => {
    const id = ns();
    expect(
      await schedule(db, { id: id(1), orderId: id('o'), kind: 'wait', nodeId: 'n1', run: 2, dueAt: T0 + 5, payload: { a: 1 } }, T0),
    ).toBe(true);
    expect(await schedule(db, { id: id(1), kind: 'other', dueAt: T0 + 999 }, T0 + 1)).toBe(false);
    expect(await getTimer(db, id(1))).toEqual({
      id: id(1),
      orderId: id('o'),
      kind: 'wait',
      nodeId: 'n1',
      run: 2,
      dueAt: T0 + 5,
      payload: { a: 1 },
      firedAt: null,
      claimedBy: null,
      claimedAt: null,
      cancelledAt: null,
      createdAt: T0,
    });
    await schedule(db, { id: id(2), kind: 'session-expiry', dueAt: T0 }, T0);
    expect(await getTimer(db, id(2))).toMatchObject({ orderId: null, nodeId: null, run: null, payload: null });
  });

  it('cancels one timer or all pending timers of an order, never fired ones', async () => {
    const id = ns();
    const order = id('order');
    for (const n of [1, 2, 3]) await schedule(db, { id: id(n), orderId: order, kind: 'wait', dueAt: T0 + n }, T0);
    await schedule(db, { id: id('other'), orderId: id('order-b'), kind: 'wait', dueAt: T0 }, T0);
    await markFired(db, id(3), T0 + 3);
    expect(await cancel(db, id(1), T0 + 1)).toBe(true);
    expect(await cancel(db, id(1), T0 + 2)).toBe(false);
    expect(await cancel(db, id(3), T0 + 2)).toBe(false);
    expect(await cancelForOrder(db, order, T0 + 10)).toEqual([id(2)]);
    expect(await cancelForOrder(db, order, T0 + 11)).toEqual([]);
    expect((await getTimer(db, id(1)))?.cancelledAt).toBe(T0 + 1);
    expect((await getTimer(db, id(2)))?.cancelledAt).toBe(T0 + 10);
    expect((await getTimer(db, id(3)))?.cancelledAt).toBeNull();
    expect((await getTimer(db, id('other')))?.cancelledAt).toBeNull();
    expect(await claimForFiring(db, id(2), T0 + 100)).toBeNull();
  });

  it('lists pending timers due within a bound in (dueAt, id) order, late ones included, page by page', async () => {
    const { db: own, drop: dropOwn } = await createTestDatabase();
    try {
      await schedule(own, { id: 'late', kind: 'k', dueAt: T0 - 60_000 }, T0);
      await schedule(own, { id: 'b', kind: 'k', dueAt: T0 + 10 }, T0);
      await schedule(own, { id: 'a', kind: 'k', dueAt: T0 + 10 }, T0);
      await schedule(own, { id: 'beyond', kind: 'k', dueAt: T0 + 1_000 }, T0);
      await schedule(own, { id: 'fired', kind: 'k', dueAt: T0 }, T0);
      await schedule(own, { id: 'cancelled', kind: 'k', dueAt: T0 }, T0);
      await markFired(own, 'fired', T0);
      await cancel(own, 'cancelled', T0);
      // Each with its kind and order, so the scheduler can route it when it fires without reading the row.
      expect(await dueWithin(own, T0 + 100, 10)).toEqual([
        { id: 'late', dueAt: T0 - 60_000, kind: 'k', orderId: null },
        { id: 'a', dueAt: T0 + 10, kind: 'k', orderId: null },
        { id: 'b', dueAt: T0 + 10, kind: 'k', orderId: null },
      ]);
      const first = await dueWithin(own, T0 + 100, 2);
      expect(await dueWithin(own, T0 + 100, 2, first[1])).toEqual([{ id: 'b', dueAt: T0 + 10, kind: 'k', orderId: null }]);
      expect((await earliestDue(own, T0 + 100))?.id).toBe('late');
      expect(await earliestDue(own, T0 - 60_001)).toBeNull();
      await markFired(own, 'late', T0);
      expect((await earliestDue(own, T0 + 100))?.id).toBe('a');
    } finally {
      await dropOwn();
    }
  });

  it('claims for firing only a pending, due timer; a concurrent second claimer gets null', async () => {
    const id = ns();
    await schedule(db, { id: id(1), kind: 'wait', dueAt: T0 + 100 }, T0);
    expect(await claimForFiring(db, id(1), T0 + 99)).toBeNull();
    expect(await claimForFiring(db, id('unknown'), T0 + 100)).toBeNull();

    let secondDone = false;
    let second: Promise<unknown> | undefined;
    await db.tx(async (c) => {
      expect((await claimForFiring(c, id(1), T0 + 100))?.id).toBe(id(1));
      // The second firer blocks on the row lock until the first commits...
      second = db.tx((c2) => claimForFiring(c2, id(1), T0 + 100)).finally(() => (secondDone = true));
      await sleep(150);
      expect(secondDone).toBe(false);
      expect(await markFired(c, id(1), T0 + 100)).toBe(true);
    });
    // ...and then sees the timer fired.
    expect(await second).toBeNull();
    expect(await markFired(db, id(1), T0 + 200)).toBe(false);
    expect((await getTimer(db, id(1)))?.firedAt).toBe(T0 + 100);
  });

  it('leases due timers to one node at a time and re-leases them after the lease expires', async () => {
    const { db: own, drop: dropOwn } = await createTestDatabase();
    try {
      for (const n of [3, 1, 2]) await schedule(own, { id: `t${n}`, kind: 'k', dueAt: T0 + n }, T0);
      await schedule(own, { id: 'future', kind: 'k', dueAt: T0 + 10_000 }, T0);
      expect(await leaseDue(own, T0 + 10, 'node-a', 1_000, 2)).toEqual(['t1', 't2']);
      expect(await leaseDue(own, T0 + 10, 'node-b', 1_000, 10)).toEqual(['t3']);
      expect(await leaseDue(own, T0 + 500, 'node-b', 1_000, 10)).toEqual([]);
      expect(await getTimer(own, 't1')).toMatchObject({ claimedBy: 'node-a', claimedAt: T0 + 10 });
      expect(await leaseDue(own, T0 + 1_010, 'node-b', 1_000, 10)).toEqual(['t1', 't2', 't3']);
    } finally {
      await dropOwn();
    }
  });
});

describe('Scheduler with the in-process index', () => {
  const running: Scheduler[] = [];
  beforeEach(retirePendingTimers);
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop();
  });

  async function startScheduler(
    clock: ManualClock,
    fire: (id: string) => Promise<void>,
    options: Partial<SchedulerOptions> = {},
    ownDb: Db = db,
  ): Promise<Scheduler> {
    const scheduler = new Scheduler({ db: ownDb, index: new MemoryTimerIndex(), clock, fire, pollMs: 10, ...options });
    running.push(scheduler);
    await scheduler.start();
    return scheduler;
  }

  it('fires each timer once, not before it is due, and picks up far timers once they enter the horizon', async () => {
    const { db: own, drop: dropOwn } = await createTestDatabase();
    try {
      const clock = new ManualClock(T0);
      const calls: string[] = [];
      const fire = async (id: string) => {
        calls.push(id);
        await own.tx(async (c) => {
          if (await claimForFiring(c, id, clock.now())) await markFired(c, id, clock.now());
        });
      };
      await schedule(own, { id: 'soon-1', kind: 'k', dueAt: T0 + 100 }, T0);
      await schedule(own, { id: 'soon-2', kind: 'k', dueAt: T0 + 200 }, T0);
      await schedule(own, { id: 'far', kind: 'k', dueAt: T0 + 10 * 60_000 }, T0);
      const scheduler = await startScheduler(clock, fire, { sweepMs: 30 }, own);

      await sleep(100);
      expect(calls).toEqual([]);
      clock.set(T0 + 150);
      await waitFor(() => calls.length === 1);
      clock.set(T0 + 250);
      await waitFor(() => calls.length === 2);
      expect(calls).toEqual(['soon-1', 'soon-2']);

      // 'far' is beyond the 60 s horizon: not in the index until a sweep sees it come near.
      clock.set(T0 + 10 * 60_000 - 30_000);
      await sleep(100);
      expect(calls).toHaveLength(2);
      clock.set(T0 + 10 * 60_000);
      await waitFor(() => calls.length === 3);
      await sleep(150);
      expect(calls).toEqual(['soon-1', 'soon-2', 'far']);
      expect(scheduler.firing).toBe(0);
      expect(await scheduler.healthy()).toBe(true);
    } finally {
      for (const s of running.splice(0)) await s.stop();
      await dropOwn();
    }
  });

  it('fires late timers at start (a restart after downtime)', async () => {
    const id = ns();
    const clock = new ManualClock(T0);
    const { fire, effective } = recordingFire(clock);
    for (const n of [1, 2, 3]) await schedule(db, { id: id(n), kind: 'k', dueAt: T0 - n * 3_600_000 }, T0 - 10 * 3_600_000);
    await startScheduler(clock, fire, { sweepMs: 60_000 });
    await waitFor(() => effective.size === 3);
    expect([...effective.values()]).toEqual([1, 1, 1]);
  });

  it('fires a timer committed after start as soon as the runtime notifies it', async () => {
    const id = ns();
    const clock = new ManualClock(T0);
    const { fire, effective } = recordingFire(clock);
    const scheduler = await startScheduler(clock, fire, { sweepMs: 60_000 });
    await schedule(db, { id: id(1), kind: 'k', dueAt: T0 + 500 }, T0);
    await scheduler.notify([
      { id: id(1), dueAt: T0 + 500 },
      { id: id('beyond-horizon'), dueAt: T0 + 3_600_000 },
    ]);
    clock.set(T0 + 500);
    await waitFor(() => effective.has(id(1)));
    expect(effective.get(id(1))).toBe(1);
  });

  it('re-seeds from PostgreSQL after the index is cleared and retries a failed fire', async () => {
    const id = ns();
    const clock = new ManualClock(T0);
    const failFirst = new Set([id(0)]);
    const { fire, effective, calls } = recordingFire(clock, { failFirst });
    const index = new MemoryTimerIndex();
    for (let n = 0; n < 20; n++) await schedule(db, { id: id(n), kind: 'k', dueAt: T0 + 1_000 + n }, T0);
    const scheduler = new Scheduler({ db, index, clock, fire, pollMs: 10, sweepMs: 50 });
    running.push(scheduler);
    await scheduler.start();
    expect(await index.size()).toBeGreaterThanOrEqual(20);
    await index.clear();
    clock.set(T0 + 2_000);
    await waitFor(() => [...Array(20).keys()].every((n) => effective.has(id(n))));
    for (let n = 0; n < 20; n++) expect(effective.get(id(n))).toBe(1);
    expect(calls.get(id(0))).toBe(2);
  });

  it('keeps firing from PostgreSQL while the index fails, and reports itself degraded', async () => {
    const id = ns();
    const clock = new ManualClock(T0);
    const { fire, effective } = recordingFire(clock);
    const broken = new MemoryTimerIndex();
    const failing: TimerIndex = Object.assign(Object.create(broken) as MemoryTimerIndex, {
      add: async () => Promise.reject(new Error('index down')),
      claimDue: async () => Promise.reject(new Error('index down')),
      healthy: async () => false,
    });
    for (let n = 0; n < 5; n++) await schedule(db, { id: id(n), kind: 'k', dueAt: T0 - n }, T0);
    const scheduler = new Scheduler({ db, index: failing, clock, fire, pollMs: 10, sweepMs: 60_000 });
    running.push(scheduler);
    await scheduler.start();
    await waitFor(() => effective.size === 5);
    expect(scheduler.degraded).toBe(true);
    expect(await scheduler.healthy()).toBe(false);
    expect(await scheduler.status()).toMatchObject({ running: true, index: 'memory', indexHealthy: false, degraded: true });
  });

  it('stop() waits for in-flight fires and fires nothing afterwards', async () => {
    const id = ns();
    const clock = new ManualClock(T0);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const started: string[] = [];
    let finished = 0;
    const fire = async (timerId: string) => {
      started.push(timerId);
      await gate;
      finished++;
    };
    await schedule(db, { id: id(1), kind: 'k', dueAt: T0 }, T0);
    const scheduler = await startScheduler(clock, fire, { sweepMs: 60_000 });
    await waitFor(() => started.length === 1);
    expect(scheduler.firing).toBe(1);
    const stopped = scheduler.stop();
    await sleep(50);
    expect(finished).toBe(0);
    release();
    await stopped;
    expect(finished).toBe(1);
    expect(scheduler.firing).toBe(0);
    await schedule(db, { id: id(2), kind: 'k', dueAt: T0 }, T0);
    await scheduler.notify([{ id: id(2), dueAt: T0 }]);
    await sleep(100);
    expect(started).toEqual([id(1)]);
  });
});

describe.skipIf(!redisUrl)('Scheduler with the Redis index', () => {
  const prefix = `test:${randomUUID()}:`;
  const indexes: RedisTimerIndex[] = [];
  const running: Scheduler[] = [];

  async function redisIndex(keyPrefix: string): Promise<RedisTimerIndex> {
    const index = await RedisTimerIndex.open({ url: redisUrl!, keyPrefix });
    indexes.push(index);
    return index;
  }

  beforeEach(retirePendingTimers);
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop();
  });

  afterAll(async () => {
    const cleaner = indexes[0] ?? (await redisIndex(prefix));
    const keys = await cleaner.redis.keys(`${prefix}*`);
    if (keys.length > 0) await cleaner.redis.del(...keys);
    for (const index of indexes.splice(0)) await index.close();
  });

  it('two schedulers sharing one Redis index and one database fire each of 500 timers exactly once', async () => {
    const id = ns();
    const keyPrefix = `${prefix}pair:`;
    const clock = new ManualClock(T0);
    const { fire, effective, calls } = recordingFire(clock);
    for (let n = 0; n < 500; n++) await schedule(db, { id: id(n), kind: 'k', dueAt: T0 + (n % 50) }, T0);
    const byNode = [new Map<string, number>(), new Map<string, number>()];
    const problems: string[] = [];
    const schedulers = await Promise.all(
      [0, 1].map(async (node) => {
        const s = new Scheduler({
          db,
          index: await redisIndex(keyPrefix),
          clock,
          fire: async (timerId) => {
            byNode[node].set(timerId, (byNode[node].get(timerId) ?? 0) + 1);
            await fire(timerId);
          },
          pollMs: 5,
          sweepMs: 60_000,
          logger: collectingLogger(problems),
        });
        running.push(s);
        return s;
      }),
    );
    await Promise.all(schedulers.map((s) => s.start()));
    clock.set(T0 + 100);
    await waitFor(() => effective.size === 500, 30_000).catch((err) => {
      throw new Error(`${err} problems=${problems.slice(0, 5).join(' | ')}`);
    });
    await sleep(100);
    expect(problems).toEqual([]);
    for (let n = 0; n < 500; n++) expect(effective.get(id(n))).toBe(1);
    // The Redis claim hands each id to one node: with no sweep racing, no id reached fire twice.
    expect([...calls.values()].every((c) => c === 1)).toBe(true);
    expect(byNode[0].size + byNode[1].size).toBe(500);
    expect(await indexes.at(-1)!.size()).toBe(0);
  });

  it('loses nothing when the prefix is wiped: the sweep re-seeds from PostgreSQL', async () => {
    const id = ns();
    const keyPrefix = `${prefix}wipe:`;
    const clock = new ManualClock(T0);
    const { fire, effective } = recordingFire(clock);
    for (let n = 0; n < 200; n++) await schedule(db, { id: id(n), kind: 'k', dueAt: T0 + 1_000 + n }, T0);
    const index = await redisIndex(keyPrefix);
    const s = new Scheduler({ db, index, clock, fire, pollMs: 10, sweepMs: 60_000 });
    running.push(s);
    await s.start();
    expect(await index.size()).toBeGreaterThanOrEqual(200);
    // FLUSHALL-like loss, limited to this test's keys.
    const keys = await index.redis.keys(`${keyPrefix}*`);
    await index.redis.del(...keys);
    expect(await index.size()).toBe(0);
    clock.set(T0 + 2_000);
    await sleep(100);
    expect(effective.size).toBe(0);
    await s.sweep();
    await waitFor(() => effective.size === 200);
    for (let n = 0; n < 200; n++) expect(effective.get(id(n))).toBe(1);
  });

  it('re-seeds on its own when Redis comes back after a restart', async () => {
    const id = ns();
    const keyPrefix = `${prefix}restart:`;
    const clock = new ManualClock(T0);
    const { fire, effective } = recordingFire(clock);
    for (let n = 0; n < 50; n++) await schedule(db, { id: id(n), kind: 'k', dueAt: T0 + 1_000 + n }, T0);
    const index = await redisIndex(keyPrefix);
    const s = new Scheduler({ db, index, clock, fire, pollMs: 10, sweepMs: 60_000 });
    running.push(s);
    await s.start();
    // A restarted Redis without persistence: the set is gone and the connection drops.
    await index.redis.del(index.key);
    index.redis.disconnect(true);
    await waitFor(async () => (await index.size().catch(() => 0)) >= 50);
    clock.set(T0 + 2_000);
    await waitFor(() => effective.size === 50);
  });
});
