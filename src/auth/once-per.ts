// Remembers when a key last fired so a repeated event (a throttled flood) is acted on at most once per period.
export class OncePer {
  private readonly last = new Map<string, number>();

  constructor(private readonly periodMs: number, private readonly maxKeys = 10_000) {}

  /** True when `key` has not fired within the period before `now` (and records that it fires now). */
  claim(key: string, now: number): boolean {
    const previous = this.last.get(key);
    if (previous !== undefined && now - previous < this.periodMs && now >= previous) return false;
    if (this.last.size >= this.maxKeys) this.last.clear();
    this.last.set(key, now);
    return true;
  }
}
