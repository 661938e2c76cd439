// A least-recently-used cache bounded by entries and by a total weight (each entry's rough size), in memory.
export class LruCache<V> {
  /** Map order is use order: the first key is the least recently used. */
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly maxEntries: number, private readonly maxWeight = Number.POSITIVE_INFINITY) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` under `key`, dropping the least recently used entries until both bounds hold; one entry heavier than the bound is not kept. */
  set(key: string, value: V, weight = 1): void {
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    while (this.entries.size > this.maxEntries || this.weight > this.maxWeight) this.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    const hit = this.entries.get(key);
    if (!hit) return;
    this.entries.delete(key);
    this.weight -= hit.weight;
  }

  get size(): number {
    return this.entries.size;
  }
}
