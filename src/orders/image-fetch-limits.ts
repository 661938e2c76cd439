// The limits on assess_order's outbound image fetches (contract 11): 8 per request in all, 4 at once per caller, 16 at once in all.
import { ConcurrencyGate } from '../lib/concurrency-gate.js';
import type { ImageFetchResult } from './image-fetch.js';

export interface ImageFetchLimitSettings {
  /** Most fetches one request may start, over all its calls (an MCP batch, an A2A message). */
  perRequest: number;
  /** Most fetches one caller may have in flight. */
  perCaller: number;
  /** Most fetches in flight on this node. */
  total: number;
  /** Most fetches waiting for a slot on this node; past it a fetch is not made. */
  waiting: number;
}

export const IMAGE_FETCH_LIMITS: ImageFetchLimitSettings = { perRequest: 8, perCaller: 4, total: 16, waiting: 32 };

const notFetched = (error: string): ImageFetchResult => ({ ok: false, error, notFetched: true });

/**
 * Wraps the guarded GET with the limits. The per-request budget is counted on a scope object the
 * transport creates once per HTTP request (or A2A message): the operation's `CallContext`, held
 * weakly so it goes with its request. A fetch past the budget, or refused by a full queue, is not
 * made and comes back `notFetched` (reported in `basis`, never a failure of the call).
 */
export class ImageFetchLimits {
  private readonly used = new WeakMap<object, number>();
  private readonly gate: ConcurrencyGate;

  constructor(private readonly settings: ImageFetchLimitSettings = IMAGE_FETCH_LIMITS) {
    this.gate = new ConcurrencyGate({ perKey: settings.perCaller, total: settings.total, waiting: settings.waiting });
  }

  /** Fetches in flight on this node (tests). */
  get active(): number {
    return this.gate.active;
  }

  async fetch(scope: object, caller: string, url: string, get: (url: string) => Promise<ImageFetchResult>): Promise<ImageFetchResult> {
    // Claimed synchronously, before any await: parallel calls of one batch cannot all see the same count.
    const used = this.used.get(scope) ?? 0;
    if (used >= this.settings.perRequest)
      return notFetched(`This request already fetched ${this.settings.perRequest} images (at most ${this.settings.perRequest} per request)`);
    this.used.set(scope, used + 1);
    const release = await this.gate.enter(caller);
    if (!release) return notFetched('Too many image fetches in progress; try again shortly');
    try {
      return await get(url);
    } finally {
      release();
    }
  }
}
