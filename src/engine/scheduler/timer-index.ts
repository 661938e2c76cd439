// TimerIndex port: a fast index of timers due soon that claims each due timer for exactly one process.

/** One indexed timer: its id (the `timers` row id) and its due time in epoch ms. */
export interface TimerIndexEntry {
  id: string;
  dueAt: number;
}

/**
 * An index over timers that are due soon. PostgreSQL stays the source of truth: the index
 * holds only (id, dueAt) pairs and can be cleared and re-seeded at any time without losing
 * anything. Implementations: `MemoryTimerIndex` (one process) and `RedisTimerIndex` (shared).
 */
export interface TimerIndex {
  readonly kind: 'redis' | 'memory';
  /** Adds or re-adds entries; adding an id already present keeps one entry (the latest dueAt). */
  add(entries: TimerIndexEntry[]): Promise<void>;
  /** Removes ids; unknown ids are ignored. */
  remove(ids: string[]): Promise<void>;
  /**
   * Atomically removes and returns up to `limit` ids with dueAt <= now, earliest first
   * (ties by id). Each id added once is returned to exactly one caller.
   */
  claimDue(now: number, limit: number): Promise<string[]>;
  /** The earliest dueAt in the index, or null when it is empty. */
  nextDueAt(): Promise<number | null>;
  /** How many ids the index holds. */
  size(): Promise<number>;
  /** Removes every entry. */
  clear(): Promise<void>;
  /** True when the index can serve commands right now. */
  healthy(): Promise<boolean>;
  /** Releases connections; the index is unusable afterwards. */
  close(): Promise<void>;
}

/** What a due timer's firing needs to know besides its id: its kind and order (no read of the row to route it). */
export interface TimerRoute {
  kind: string;
  orderId: string | null;
  dueAt: number;
}

/** An entry with its route, when the adder knows it (the runtime after a commit, the sweep from the row). */
export type RoutedTimerEntry = TimerIndexEntry & { kind?: string; orderId?: string | null };
