// Runs the TimerIndex contract against Redis (TEST_REDIS_URL), plus Redis-only behaviour: isolation, reconnect, fail-fast.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisTimerIndex } from '../../src/engine/scheduler/redis-timer-index.js';
import { describeTimerIndexContract } from '../unit/engine/timer-index.contract.js';

const url = process.env.TEST_REDIS_URL;
/** Every key this run touches starts with this, so a shared Redis is never disturbed. */
const runPrefix = `test:${randomUUID()}:`;
let counter = 0;

describe.skipIf(!url)('RedisTimerIndex', () => {
  const opened: RedisTimerIndex[] = [];
  const open = async (keyPrefix: string, extra: Partial<ConstructorParameters<typeof RedisTimerIndex>[0]> = {}) => {
    const index = await RedisTimerIndex.open({ url: url!, keyPrefix, ...extra });
    opened.push(index);
    return index;
  };

  afterAll(async () => {
    // Delete this run's keys (never FLUSHALL a shared server), then close what is still open.
    const cleaner = await open(runPrefix);
    const keys = await cleaner.redis.keys(`${runPrefix}*`);
    if (keys.length > 0) await cleaner.redis.del(...keys);
    for (const index of opened) if (index.redis.status !== 'end') await index.close();
  });

  describeTimerIndexContract(
    'redis',
    async () => open(`${runPrefix}${++counter}:`),
    // Each concurrent claimer gets its own connection on the same sorted set.
    { peer: async (first) => open((first as RedisTimerIndex).key.replace(/timers:due$/, '')) },
  );

  it('keeps two key prefixes apart', async () => {
    const a = await open(`${runPrefix}iso-a:`);
    const b = await open(`${runPrefix}iso-b:`);
    await a.add([{ id: 'same-id', dueAt: 1 }]);
    expect(await b.size()).toBe(0);
    expect(await b.claimDue(10, 10)).toEqual([]);
    expect(await a.claimDue(10, 10)).toEqual(['same-id']);
  });

  it('runs onReconnect callbacks when the connection comes back', async () => {
    const index = await open(`${runPrefix}reconnect:`);
    let calls = 0;
    const ready = new Promise<void>((resolve) =>
      index.onReconnect(() => {
        calls++;
        resolve();
      }),
    );
    index.redis.disconnect(true);
    await ready;
    expect(calls).toBe(1);
    expect(await index.healthy()).toBe(true);
  });

  it('fails fast instead of hanging while Redis is unreachable', async () => {
    // A port nothing listens on: the client never becomes ready.
    const down = new RedisTimerIndex({ url: 'redis://127.0.0.1:1', keyPrefix: runPrefix, connectTimeoutMs: 500 });
    down.redis.on('error', () => undefined);
    await expect(RedisTimerIndex.open({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500 })).rejects.toThrow();
    const started = performance.now();
    await expect(down.claimDue(10, 10)).rejects.toThrow();
    await expect(down.add([{ id: 'x', dueAt: 1 }])).rejects.toThrow();
    expect(await down.healthy()).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    await down.close();
  });
});
