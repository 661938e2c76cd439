// Caps how much of one kind of work runs at once, per key (a caller) and in all, with a bounded queue of waiters.

/** Gives the slot back; calling it more than once is harmless. */
export type Release = () => void;

export interface ConcurrencyGateLimits {
  /** Most runs at once for one key. */
  perKey: number;
  /** Most runs at once in all. */
  total: number;
  /** Most waiters in all; an entry past it is refused at once. */
  waiting: number;
}

interface Waiter {
  key: string;
  admit: (release: Release) => void;
}

/**
 * `enter(key)` resolves with a release once a slot is free both for the key and in all, or with
 * null at once when the queue of waiters is full (the caller reports the work as not done rather
 * than wait without bound). Waiters are admitted first come first served, skipping a waiter whose
 * key is still at its own limit, so one busy key cannot hold back the others.
 */
export class ConcurrencyGate {
  private readonly running = new Map<string, number>();
  private runningTotal = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: ConcurrencyGateLimits) {}

  enter(key: string): Promise<Release | null> {
    // A free slot is never held back by the queue: every waiter's key (or the total) was full when it queued, and each release admits at once.
    if (this.free(key)) return Promise.resolve(this.take(key));
    if (this.queue.length >= this.limits.waiting) return Promise.resolve(null);
    return new Promise((admit) => this.queue.push({ key, admit }));
  }

  /** Runs in progress (for tests and metrics). */
  get active(): number {
    return this.runningTotal;
  }

  private free(key: string): boolean {
    return this.runningTotal < this.limits.total && (this.running.get(key) ?? 0) < this.limits.perKey;
  }

  private take(key: string): Release {
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    this.runningTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.running.get(key)! - 1;
      if (left === 0) this.running.delete(key);
      else this.running.set(key, left);
      this.runningTotal--;
      this.admitNext();
    };
  }

  private admitNext(): void {
    for (let i = 0; i < this.queue.length && this.runningTotal < this.limits.total; i++) {
      const waiter = this.queue[i];
      if (!this.free(waiter.key)) continue;
      this.queue.splice(i, 1);
      i--;
      waiter.admit(this.take(waiter.key));
    }
  }
}
