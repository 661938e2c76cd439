// In-process TimerIndex: a binary min-heap on (dueAt, id) plus an id map, with lazy deletion.
import type { TimerIndex, TimerIndexEntry } from './timer-index.js';

/** Orders heap entries by due time, then id (the same order a Redis sorted set uses). */
function before(a: TimerIndexEntry, b: TimerIndexEntry): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.id < b.id);
}

/**
 * TimerIndex for a single process without Redis. `remove` and re-`add` only touch the id
 * map; heap entries whose (id, dueAt) no longer matches the map are stale and are dropped
 * when they reach the top (lazy deletion), and the heap is rebuilt when stale entries pile up.
 * Every method runs synchronously inside its promise, so a claim is atomic within the process.
 */
export class MemoryTimerIndex implements TimerIndex {
  readonly kind = 'memory' as const;
  private heap: TimerIndexEntry[] = [];
  private readonly live = new Map<string, number>();

  async add(entries: TimerIndexEntry[]): Promise<void> {
    for (const { id, dueAt } of entries) {
      if (this.live.get(id) === dueAt) continue;
      this.live.set(id, dueAt);
      this.push({ id, dueAt });
    }
    this.compactIfNeeded();
  }

  async remove(ids: string[]): Promise<void> {
    for (const id of ids) this.live.delete(id);
    this.compactIfNeeded();
  }

  async claimDue(now: number, limit: number): Promise<string[]> {
    const claimed: string[] = [];
    while (claimed.length < limit) {
      const top = this.peekLive();
      if (!top || top.dueAt > now) break;
      this.pop();
      this.live.delete(top.id);
      claimed.push(top.id);
    }
    return claimed;
  }

  async nextDueAt(): Promise<number | null> {
    return this.peekLive()?.dueAt ?? null;
  }

  async size(): Promise<number> {
    return this.live.size;
  }

  async clear(): Promise<void> {
    this.heap = [];
    this.live.clear();
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    await this.clear();
  }

  /** The earliest entry that is still live, discarding stale ones above it. */
  private peekLive(): TimerIndexEntry | undefined {
    while (this.heap.length > 0) {
      const top = this.heap[0];
      if (this.live.get(top.id) === top.dueAt) return top;
      this.pop();
    }
    return undefined;
  }

  /** Rebuilds the heap from the live map when stale entries outnumber live ones. */
  private compactIfNeeded(): void {
    if (this.heap.length <= 2 * this.live.size + 1024) return;
    this.heap = [...this.live].map(([id, dueAt]) => ({ id, dueAt }));
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private push(entry: TimerIndexEntry): void {
    this.heap.push(entry);
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(this.heap[i], this.heap[parent])) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent], this.heap[i]];
      i = parent;
    }
  }

  private pop(): void {
    const last = this.heap.pop();
    if (last === undefined || this.heap.length === 0) return;
    this.heap[0] = last;
    this.siftDown(0);
  }

  private siftDown(start: number): void {
    const n = this.heap.length;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < n && before(this.heap[l], this.heap[least])) least = l;
      if (r < n && before(this.heap[r], this.heap[least])) least = r;
      if (least === i) return;
      [this.heap[i], this.heap[least]] = [this.heap[least], this.heap[i]];
      i = least;
    }
  }
}
