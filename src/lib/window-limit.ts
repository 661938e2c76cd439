// Counts starts per key in a sliding window and refuses past a limit (one caller's share of costly work), in memory.

/** Refused: the key has used its starts; one more is allowed after `retryAfterSeconds`. */
export interface WindowRefusal {
  retryAfterSeconds: number;
}

export class WindowLimit {
  /** Start times per key, oldest first, only those inside the window. */
  private readonly starts = new Map<string, number[]>();

  constructor(readonly limit: number, readonly windowMs: number, private readonly maxKeys = 10_000) {}

  /** Records a start for `key` at `now` and answers null, or answers the wait when `limit` starts are already in the window. */
  take(key: string, now: number): WindowRefusal | null {
    const times = (this.starts.get(key) ?? []).filter((t) => t > now - this.windowMs && t <= now);
    if (times.length >= this.limit) {
      this.starts.set(key, times);
      return { retryAfterSeconds: Math.max(1, Math.ceil((times[times.length - this.limit] + this.windowMs - now) / 1000)) };
    }
    times.push(now);
    this.starts.delete(key);
    this.starts.set(key, times);
    // Bounded memory: past maxKeys the least recently started keys are forgotten (their windows are the oldest).
    while (this.starts.size > this.maxKeys) this.starts.delete(this.starts.keys().next().value as string);
    return null;
  }
}
