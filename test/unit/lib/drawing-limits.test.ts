// The in-memory bounds behind the drawing cost rules: the per-key sliding window (4 per 10 s) and the weighted LRU of layouts.
import { describe, expect, it } from 'vitest';
import { WindowLimit } from '../../../src/lib/window-limit.js';
import { LruCache } from '../../../src/lib/lru-cache.js';

describe('WindowLimit', () => {
  it('allows `limit` starts per window per key, then says how long until the oldest leaves the window', () => {
    const limit = new WindowLimit(4, 10_000);
    for (const at of [0, 1000, 2000, 3000]) expect(limit.take('a', at)).toBeNull();
    expect(limit.take('a', 3500)).toEqual({ retryAfterSeconds: 7 });
    expect(limit.take('b', 3500)).toBeNull();
    expect(limit.take('a', 9999)).toEqual({ retryAfterSeconds: 1 });
    expect(limit.take('a', 10_000)).toBeNull();
    expect(limit.take('a', 10_001)).toEqual({ retryAfterSeconds: 1 });
  });

  it('keeps at most maxKeys keys, forgetting the least recently started', () => {
    const limit = new WindowLimit(1, 10_000, 2);
    expect(limit.take('a', 0)).toBeNull();
    expect(limit.take('b', 0)).toBeNull();
    expect(limit.take('c', 0)).toBeNull();
    expect(limit.take('a', 1)).toBeNull(); // forgotten
    expect(limit.take('c', 1)).not.toBeNull();
  });
});

describe('LruCache', () => {
  it('drops the least recently used entries past its count or its total weight; an entry heavier than the bound is not kept', () => {
    const cache = new LruCache<number>(3, 10);
    cache.set('a', 1, 4);
    cache.set('b', 2, 4);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3, 4); // weight 12 > 10: b goes
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    cache.set('huge', 4, 11);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
