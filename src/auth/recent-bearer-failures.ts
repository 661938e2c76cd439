// This node's memory of addresses it counted a wrong bearer guess from, so their cached tokens still face the throttle.
import { THROTTLE_WINDOW_MS } from './failure-throttle.js';

/**
 * Address -> when this node last counted a wrong bearer guess from it (or saw it throttled). While
 * that is within the throttle window, a cached API token from the address still pays the throttle
 * read. Bounded: when the map is full of addresses inside the window, the oldest goes and, for one
 * window, every address counts as recent (the throttle is read for all: safe, only slower).
 */
export class RecentBearerFailures {
  private readonly last = new Map<string, number>();
  private overflowedAt: number | null = null;

  constructor(private readonly windowMs = THROTTLE_WINDOW_MS, private readonly maxKeys = 10_000) {}

  record(address: string, now: number): void {
    this.last.delete(address);
    if (this.last.size >= this.maxKeys) {
      for (const [key, at] of this.last) if (!this.inWindow(at, now)) this.last.delete(key);
      if (this.last.size >= this.maxKeys) {
        this.last.delete(this.last.keys().next().value!);
        this.overflowedAt = now;
      }
    }
    // Re-inserted: the map's order is the order of the last failures.
    this.last.set(address, now);
  }

  /** True when this node counted a failure from `address` within the window before `now`. */
  within(address: string, now: number): boolean {
    if (this.overflowedAt !== null && this.inWindow(this.overflowedAt, now)) return true;
    const at = this.last.get(address);
    return at !== undefined && this.inWindow(at, now);
  }

  private inWindow(at: number, now: number): boolean {
    return now >= at && now - at < this.windowMs;
  }
}
