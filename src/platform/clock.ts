// Clock port: the one source of time for engine, domain and HTTP code (DESIGN rule 2).

/** Reads the current time in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that runs at real speed from an offset that can only move forward.
 * The offset is what `POST /api/v1/test/clock` changes; persistence of the offset
 * is the caller's job (see `src/engine/test-clock-store.ts`).
 */
export class OffsetClock implements Clock {
  private offsetMs: number;

  constructor(offsetMs = 0, private readonly base: Clock = systemClock) {
    this.offsetMs = offsetMs;
  }

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock forward to `target` (never backward); returns the new now. */
  advanceTo(target: number): number {
    const current = this.now();
    if (target > current) this.offsetMs += target - current;
    return this.now();
  }
}

/** A clock frozen at a value that tests set by hand (pure unit tests only). */
export class ManualClock implements Clock {
  constructor(private current = 0) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
