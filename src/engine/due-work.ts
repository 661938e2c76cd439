// Work that becomes due at a time (timers, outbound retries): what the test clock fires in due order.

export interface DueItem {
  /** Identifies the item within its source (a failed item is not offered again in the same advance). */
  key: string;
  /** When it is due, epoch ms. */
  at: number;
  /** Does the work; the clock stands at `at` while it runs. */
  run(): Promise<void>;
}

/** A source of due work; returns the earliest item due at or before `until`, or null. */
export interface DueWorkSource {
  readonly name: string;
  nextDue(until: number, exclude: readonly string[]): Promise<DueItem | null>;
}
