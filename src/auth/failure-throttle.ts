// Counts failed attempts per key in 15-minute sliding windows (spec "Failed-sign-in throttling").
import type { Queryable } from '../db/db.js';
import type { Clock } from '../engine/clock.js';

export const THROTTLE_WINDOW_MS = 15 * 60_000;

/** A counter and how many failures it allows inside one window. */
export interface ThrottleRule {
  key: string;
  limit: number;
}

/** The first rule over its limit and how long until it is under it again. */
export interface Throttled {
  key: string;
  retryAfterSeconds: number;
}

export class FailureThrottle {
  constructor(private readonly db: Queryable, private readonly clock: Clock, readonly windowMs = THROTTLE_WINDOW_MS) {}

  /**
   * Null when every rule has fewer failures than its limit in the window; otherwise the
   * rule with the longest wait. Called before any credential is looked at.
   */
  async check(rules: ThrottleRule[]): Promise<Throttled | null> {
    const now = this.clock.now();
    const since = now - this.windowMs;
    let worst: Throttled | null = null;
    for (const rule of rules) {
      const { rows } = await this.db.query<{ at: string }>(
        'SELECT at FROM auth_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3',
        [rule.key, since, rule.limit],
      );
      if (rows.length < rule.limit) continue;
      // The limit-th newest failure must leave the window before one more attempt is allowed.
      const until = Number(rows[rule.limit - 1].at) + this.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((until - now) / 1000));
      if (!worst || retryAfterSeconds > worst.retryAfterSeconds) worst = { key: rule.key, retryAfterSeconds };
    }
    return worst;
  }

  /** Records one failure under each key. */
  async record(keys: string[]): Promise<void> {
    const now = this.clock.now();
    for (const key of keys) await this.db.query('INSERT INTO auth_failures (key, at) VALUES ($1, $2)', [key, now]);
  }

  /** Forgets every failure of a key (a successful sign-in clears its email-and-address count). */
  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM auth_failures WHERE key = $1', [key]);
  }

  /** Drops failures that no window can see any more. */
  async purge(): Promise<void> {
    await this.db.query('DELETE FROM auth_failures WHERE at <= $1', [this.clock.now() - this.windowMs]);
  }
}
