// assess_order's image fetch limits (contract 11, security review 2 M-6): 8 per request scope, 4 at once per caller, 16 in all.
import { describe, expect, it } from 'vitest';
import { ImageFetchLimits } from '../../../src/orders/image-fetch-limits.js';
import type { ImageFetchResult } from '../../../src/orders/image-fetch.js';

const ok: ImageFetchResult = { ok: true, head: Buffer.alloc(0), size: 0 };

/** A fetch that waits until `open()`; counts how many run at once at most. */
function heldFetch() {
  let running = 0;
  let peak = 0;
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const get = async (): Promise<ImageFetchResult> => {
    running++;
    peak = Math.max(peak, running);
    await gate;
    running--;
    return ok;
  };
  return { get, open: () => open(), peak: () => peak };
}

describe('ImageFetchLimits', () => {
  it('one request scope makes at most 8 fetches; the rest are notFetched without a request; a new scope starts again', async () => {
    const limits = new ImageFetchLimits();
    let made = 0;
    const get = async () => (made++, ok);
    const scope = {};
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => limits.fetch(scope, `caller-${i}`, 'https://x/a.png', get)));
    expect(made).toBe(8);
    expect(results.filter((r) => !r.ok && r.notFetched)).toHaveLength(12);
    await limits.fetch({}, 'caller-0', 'https://x/a.png', get);
    expect(made).toBe(9);
  });

  it('one caller has at most 4 fetches in flight, all callers at most 16; waiters past the queue are not fetched', async () => {
    const limits = new ImageFetchLimits({ perRequest: 100, perCaller: 4, total: 16, waiting: 8 });
    const held = heldFetch();
    // 6 scopes of one caller: 4 run, 2 wait.
    const one = Array.from({ length: 6 }, () => limits.fetch({}, 'same', 'u', held.get));
    await new Promise((r) => setImmediate(r));
    expect(limits.active).toBe(4);
    // 20 other callers: 12 more run (16 in all), 6 wait (8 waiting in all), 2 are refused at once.
    const others = Array.from({ length: 20 }, (_, i) => limits.fetch({}, `other-${i}`, 'u', held.get));
    await new Promise((r) => setImmediate(r));
    expect(limits.active).toBe(16);
    held.open();
    const all = await Promise.all([...one, ...others]);
    expect(held.peak()).toBe(16);
    expect(all.filter((r) => !r.ok && r.notFetched)).toHaveLength(2);
    expect(all.filter((r) => r.ok)).toHaveLength(24);
    expect(limits.active).toBe(0);
  });
});
