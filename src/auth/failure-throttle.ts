// Counts failed attempts per key in 15-minute sliding windows (spec "Failed-sign-in throttling"), atomically per key.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';

export const THROTTLE_WINDOW_MS = 15 * 60_000;

/**
 * Class id of the throttle's advisory locks (two-key form: class, hash of the key). PostgreSQL keeps
 * the two-key and the one-key lock spaces apart, and the other class ids in use are 7_342_xxx.
 */
const THROTTLE_LOCK_CLASS = 7_342_500;

/** A counter and how many failures it allows inside one window. */
export interface ThrottleRule {
  key: string;
  limit: number;
}

/** The first rule over its limit and how long until it is under it again. */
export interface Throttled {
  kind: 'throttled';
  key: string;
  retryAfterSeconds: number;
}

/**
 * An attempt counted before its credential was checked: one failure row per key. Released when the
 * credential was right; left in place it is the failure (so an attempt that dies half-way counts too).
 */
export interface Reservation {
  kind: 'reserved';
  ids: string[];
}

/** What a cheap secret compared under the locks turned out to be. */
export type GuessOutcome = Throttled | { kind: 'matched' } | { kind: 'failed' };

/** The 32-bit lock id of a key; two keys sharing one only wait for each other, which is harmless. */
function lockIdOf(key: string): number {
  return createHash('sha256').update(key).digest().readInt32BE(0);
}

export class FailureThrottle {
  constructor(private readonly db: Pick<Db, 'query' | 'tx'>, private readonly clock: Clock, readonly windowMs = THROTTLE_WINDOW_MS) {}

  /**
   * Reserves one attempt before an expensive credential check (PBKDF2, a TOTP code): in one
   * transaction, under an advisory lock per key, either some rule is over its limit (nothing is
   * written) or one failure row per key is inserted. Parallel attempts queue on the locks, so a
   * burst of wrong ones gets exactly `limit` reservations and the rest are throttled.
   */
  reserve(rules: ThrottleRule[]): Promise<Reservation | Throttled> {
    return this.db.tx(async (client) => {
      const now = this.clock.now();
      const throttled = await this.lockAndCount(client, rules, now);
      if (throttled) return throttled;
      return { kind: 'reserved', ids: await this.insert(client, rules, now) };
    });
  }

  /** The credential was right: the reservation's rows go, as if the attempt had never been counted. */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.ids.length) await this.db.query('DELETE FROM auth_failures WHERE id = ANY($1::bigint[])', [reservation.ids]);
  }

  /**
   * One guess at a cheap secret (the workspace password as a bearer, an unknown API token): under
   * the keys' locks the rules are counted, `matches` is called only when none is over its limit, and
   * a wrong guess is recorded in the same transaction. `matches` runs while the locks are held, so it
   * must be a constant-time comparison, never I/O. A right guess writes nothing, so parallel right
   * guesses never count against each other.
   */
  guess(rules: ThrottleRule[], matches: () => boolean): Promise<GuessOutcome> {
    return this.db.tx(async (client) => {
      const now = this.clock.now();
      const throttled = await this.lockAndCount(client, rules, now);
      if (throttled) return throttled;
      if (matches()) return { kind: 'matched' };
      await this.insert(client, rules, now);
      return { kind: 'failed' };
    });
  }

  /** Forgets every failure of a key (a successful sign-in clears its email-and-address count). */
  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM auth_failures WHERE key = $1', [key]);
  }

  /** Drops failures that no window can see any more (on `q`: the retention run passes its maintenance transaction). */
  async purge(q: Pick<Db, 'query'> = this.db): Promise<void> {
    await q.query('DELETE FROM auth_failures WHERE at <= $1', [this.clock.now() - this.windowMs]);
  }

  /** Takes the keys' locks in ascending lock-id order (so two attempts never wait on each other in a cycle), then counts. */
  private async lockAndCount(client: pg.PoolClient, rules: ThrottleRule[], now: number): Promise<Throttled | null> {
    const lockIds = [...new Set(rules.map((r) => lockIdOf(r.key)))].sort((a, b) => a - b);
    for (const id of lockIds) await client.query('SELECT pg_advisory_xact_lock($1, $2)', [THROTTLE_LOCK_CLASS, id]);
    return this.worst(client, rules, now);
  }

  /** Null when every rule has fewer failures than its limit in the window; otherwise the rule with the longest wait. */
  private async worst(q: Pick<Db, 'query'>, rules: ThrottleRule[], now: number): Promise<Throttled | null> {
    const since = now - this.windowMs;
    let worst: Throttled | null = null;
    for (const rule of rules) {
      const { rows } = await q.query<{ at: string }>(
        'SELECT at FROM auth_failures WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT $3',
        [rule.key, since, rule.limit],
      );
      if (rows.length < rule.limit) continue;
      // The limit-th newest failure must leave the window before one more attempt is allowed.
      const until = Number(rows[rule.limit - 1].at) + this.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((until - now) / 1000));
      if (!worst || retryAfterSeconds > worst.retryAfterSeconds) worst = { kind: 'throttled', key: rule.key, retryAfterSeconds };
    }
    return worst;
  }

  private async insert(client: pg.PoolClient, rules: ThrottleRule[], now: number): Promise<string[]> {
    const { rows } = await client.query<{ id: string }>(
      'INSERT INTO auth_failures (key, at) SELECT k, $2 FROM unnest($1::text[]) AS k RETURNING id',
      [rules.map((r) => r.key), now],
    );
    return rows.map((r) => r.id);
  }
}
