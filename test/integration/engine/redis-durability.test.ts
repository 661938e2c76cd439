// Timers survive Redis: a flushed index and a restarted Redis lose no timer and fire none twice
// (issue "Flow engine": FLUSHALL then restart; Redis restarted while the service runs; contract 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OffsetClock } from '../../../src/platform/clock.js';
import { e, n, startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';
import { redisServerAvailable, startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';

const HOUR = 3_600_000;

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!redisServerAvailable())('timers on a private Redis', () => {
  let redis: PrivateRedis;
  let h: EngineHarness;
  let version: number;
  let clock: OffsetClock;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    h = await startEngineHarness({ env: { REDIS_URL: redis.url } });
    clock = h.t.service.ctx.clock as OffsetClock;
    version = await h.publish('timeout-flow', {
      nodes: [n('start', 'trigger.api'), n('wait', 'wait.event', { event: 'x', timeout: '1h' }), n('ok', 'end', { outcome: 'completed' }), n('late', 'end', { outcome: 'cancelled', reason: 'timed out' })],
      edges: [e('start', 'wait'), e('wait', 'ok', 'received'), e('wait', 'late', 'timeout')],
    });
  });
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  async function timedOut(ids: string[]): Promise<number> {
    const { rows } = await h.t.service.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND status = 'cancelled'",
      [ids],
    );
    return rows[0].n;
  }

  async function firedOnce(ids: string[]): Promise<void> {
    const { rows } = await h.t.service.ctx.db.query<{ order_id: string; n: number }>(
      "SELECT order_id, count(*)::int AS n FROM order_timeline WHERE order_id = ANY($1) AND kind = 'wait.timeout' GROUP BY order_id",
      [ids],
    );
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  }

  it('uses the Redis index (scheduler reports index redis)', async () => {
    expect((await h.engine.scheduler.status()).index).toBe('redis');
  });

  it('after FLUSHALL and a scheduler restart every timer still fires, once', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, () => h.startOrder('timeout-flow', version)));
    const c = redis.client();
    await c.flushall();
    c.disconnect();
    // What a restart does to the index: stop, then start re-seeds from PostgreSQL.
    await h.engine.scheduler.stop();
    clock.advanceTo(clock.now() + HOUR + 1);
    await h.engine.scheduler.start();
    await until(async () => (await timedOut(ids)) === ids.length);
    await firedOnce(ids);
  });

  it('Redis stopped and started while the service runs: timers due meanwhile fire once', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, () => h.startOrder('timeout-flow', version)));
    await redis.stop();
    clock.advanceTo(clock.now() + HOUR + 1);
    // Due during the outage: fired from PostgreSQL by the fallback lease.
    await until(async () => (await timedOut(ids)) === ids.length);
    await redis.start();
    const later = await Promise.all(Array.from({ length: 20 }, () => h.startOrder('timeout-flow', version)));
    await until(async () => (await h.engine.scheduler.status()).indexHealthy);
    clock.advanceTo(clock.now() + HOUR + 1);
    await until(async () => (await timedOut(later)) === later.length);
    await firedOnce([...ids, ...later]);
  });
});
