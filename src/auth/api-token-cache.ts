// Resolved API tokens in process memory, keyed by the SHA-256 of the secret: a known token's request costs no SQL.
import type { ApiToken, TokenOwner } from './api-token-store.js';
import { sha256 } from './secret-tokens.js';

/** What the token resolver needs to decide and build a principal: the token row and its owner's state. */
export interface CachedToken {
  token: ApiToken;
  owner: TokenOwner;
}

/** A safety net for any change an invalidation missed (a lost Redis message, a write made outside the service). */
export const TOKEN_CACHE_TTL_MS = 60_000;
/** Live tokens a workspace uses at once are few; the cap only bounds memory under odd use. */
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/** The cache key of a secret: the same SHA-256 the database keeps (`api_tokens.token_hash`), never the secret. */
export function tokenCacheKey(secret: string): string {
  return sha256(secret).toString('base64');
}

/**
 * Entries are what the database said about a token that was served (every refusal check passed).
 * An entry is served while it is younger than the TTL by the injected clock and its token has not
 * expired by that clock; the least recently used entry goes when the cap is reached.
 *
 * `invalidate` (any identity change: a revocation, an owner's role, enabled flag, password or
 * two-factor state) forgets everything and moves the generation on; a store carries the
 * generation read before its database read, so a read that raced a change is never stored.
 */
export class ApiTokenCache {
  private readonly entries = new Map<string, { value: CachedToken; storedAt: number }>();
  private gen = 0;

  constructor(private readonly options: { ttlMs?: number; maxEntries?: number } = {}) {}

  /** Take it before the database read whose result `set` will store. */
  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry when it may be served at `now` (within its TTL, token not expired); a stale one is dropped. */
  get(key: string, now: number): CachedToken | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    const { token } = entry.value;
    const ttl = this.options.ttlMs ?? TOKEN_CACHE_TTL_MS;
    const stale = now < entry.storedAt || now - entry.storedAt >= ttl || (token.expiresAt !== null && token.expiresAt <= now);
    this.entries.delete(key);
    if (stale) return null;
    // Re-inserted: the map's order is the recency order.
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a served token read at `generation`; ignored when an invalidation came since (the read may predate it). */
  set(key: string, value: CachedToken, generation: number, now: number): void {
    if (generation !== this.gen) return;
    this.entries.delete(key);
    const max = this.options.maxEntries ?? TOKEN_CACHE_MAX_ENTRIES;
    while (this.entries.size >= max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, storedAt: now });
  }

  /** Replaces an entry's token row (its `lastUsedAt` after a touch) without renewing its TTL. */
  updateToken(key: string, token: ApiToken): void {
    const entry = this.entries.get(key);
    if (entry) entry.value = { ...entry.value, token };
  }

  /** Forgets every entry; reads already under way store nothing. */
  invalidate(): void {
    this.gen++;
    this.entries.clear();
  }
}
