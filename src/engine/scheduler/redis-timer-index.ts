// Redis TimerIndex: one sorted set (score = dueAt) shared by every node; a Lua script claims due ids atomically.
import { Redis } from 'ioredis';
import type { TimerIndex, TimerIndexEntry } from './timer-index.js';

/**
 * Removes and returns up to ARGV[2] members with score <= ARGV[1], earliest first. Runs as
 * one script, so Redis executes it atomically: two claimers never get the same id.
 * ZREM is chunked to stay below Lua's unpack() stack limit.
 */
const CLAIM_DUE_LUA = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #ids, 500 do
  redis.call('ZREM', KEYS[1], unpack(ids, i, math.min(i + 499, #ids)))
end
return ids
`;

/** How many entries one ZADD/ZREM carries. */
const CHUNK = 1_000;

export interface RedisTimerIndexOptions {
  /** redis:// or rediss:// URL. */
  url: string;
  /** Prefix of every key this index touches, so tests and services sharing a server stay apart. */
  keyPrefix?: string;
  /** Fails a command that gets no reply within this many ms (a hung server must not hang the poll loop). */
  commandTimeoutMs?: number;
  /** Gives up connecting (one attempt) after this many ms. */
  connectTimeoutMs?: number;
  /** Receives connection errors (ioredis would otherwise print them). */
  onError?: (err: Error) => void;
}

/** The Redis client typed with the custom claim command registered by `defineCommand`. */
type ClaimingRedis = Redis & {
  claimDueTimers(key: string, now: string, limit: string): Promise<string[]>;
};

/**
 * TimerIndex over a Redis sorted set `<prefix>timers:due`. Commands fail fast while Redis is
 * unreachable (no offline queue, one retry, a command timeout) so callers can fall back to
 * PostgreSQL; the client keeps reconnecting in the background and `onReconnect` callbacks
 * run every time the connection becomes ready, so the scheduler can re-seed the set.
 */
export class RedisTimerIndex implements TimerIndex {
  readonly kind = 'redis' as const;
  /** The underlying client (exposed for tests and diagnostics; do not subscribe on it). */
  readonly redis: Redis;
  readonly key: string;
  private readonly readyCallbacks = new Set<() => void>();

  constructor(options: RedisTimerIndexOptions) {
    const prefix = options.keyPrefix ?? 'oo:';
    this.key = `${prefix}timers:due`;
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
    });
    this.redis.defineCommand('claimDueTimers', { lua: CLAIM_DUE_LUA, numberOfKeys: 1 });
    this.redis.on('error', (err: Error) => options.onError?.(err));
    this.redis.on('ready', () => {
      for (const cb of [...this.readyCallbacks]) cb();
    });
  }

  /** Creates an index and waits for the first connection; rejects (and cleans up) if Redis is unreachable. */
  static async open(options: RedisTimerIndexOptions): Promise<RedisTimerIndex> {
    const index = new RedisTimerIndex(options);
    try {
      await index.connect();
    } catch (err) {
      index.redis.disconnect();
      throw err;
    }
    return index;
  }

  /** Starts connecting (the client is lazy) and resolves once it is ready. */
  async connect(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await this.redis.connect();
  }

  /**
   * Registers `cb` to run whenever the connection becomes ready again (after a Redis restart
   * or network loss, and on the first connect if it has not happened yet). Returns an unsubscribe.
   */
  onReconnect(cb: () => void): () => void {
    this.readyCallbacks.add(cb);
    return () => this.readyCallbacks.delete(cb);
  }

  async add(entries: TimerIndexEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += CHUNK) {
      const args: (string | number)[] = [];
      for (const e of entries.slice(i, i + CHUNK)) args.push(e.dueAt, e.id);
      await this.redis.zadd(this.key, ...args);
    }
  }

  async remove(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += CHUNK) {
      await this.redis.zrem(this.key, ...ids.slice(i, i + CHUNK));
    }
  }

  async claimDue(now: number, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return (this.redis as ClaimingRedis).claimDueTimers(this.key, String(now), String(Math.floor(limit)));
  }

  async nextDueAt(): Promise<number | null> {
    const first = await this.redis.zrange(this.key, '0', '0', 'WITHSCORES');
    return first.length >= 2 ? Number(first[1]) : null;
  }

  async size(): Promise<number> {
    return this.redis.zcard(this.key);
  }

  async clear(): Promise<void> {
    await this.redis.del(this.key);
  }

  async healthy(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.readyCallbacks.clear();
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
