// The API-token cache of issue 19 ("a valid credential costs no database round trip after its first use"): TTL by the
// injected clock, exact expiry, a size cap, and invalidation that a racing read cannot undo; plus identity changes.
import { describe, expect, it } from 'vitest';
import { ApiTokenCache, tokenCacheKey, TOKEN_CACHE_TTL_MS, type CachedToken } from '../../../src/auth/api-token-cache.js';
import { IdentityChanges } from '../../../src/auth/identity-changes.js';
import { sha256 } from '../../../src/auth/secret-tokens.js';

const T0 = 1_700_000_000_000;
const entry = (id: string, expiresAt: number | null = null): CachedToken => ({
  token: {
    id, name: id, role: 'operator', prefix: 'svc_live_abc', createdBy: 'operator', createdById: null, createdAt: T0,
    expiresAt, lastUsedAt: null, revokedAt: null, expiredAuditedAt: null,
  },
  owner: { kind: 'workspace' },
});

describe('ApiTokenCache', () => {
  it('is keyed by the SHA-256 the database keeps, never by the secret', () => {
    const secret = 'svc_live_secret-value';
    expect(tokenCacheKey(secret)).toBe(sha256(secret).toString('base64'));
    expect(tokenCacheKey(secret)).not.toContain('secret-value');
  });

  it('serves an entry within its TTL by the injected clock, not after (nor when the clock went back)', () => {
    const cache = new ApiTokenCache();
    cache.set('k', entry('a'), cache.generation, T0);
    expect(cache.get('k', T0 + TOKEN_CACHE_TTL_MS - 1)?.token.id).toBe('a');
    expect(cache.get('k', T0 + TOKEN_CACHE_TTL_MS)).toBeNull();
    expect(cache.size).toBe(0);
    cache.set('k', entry('a'), cache.generation, T0);
    expect(cache.get('k', T0 - 1)).toBeNull();
  });

  it('never serves a token whose expiresAt has passed, even inside the TTL (expiry stays exact)', () => {
    const cache = new ApiTokenCache();
    cache.set('k', entry('a', T0 + 1_000), cache.generation, T0);
    expect(cache.get('k', T0 + 999)?.token.id).toBe('a');
    expect(cache.get('k', T0 + 1_000)).toBeNull();
  });

  it('is capped: the least recently used entry goes first', () => {
    const cache = new ApiTokenCache({ maxEntries: 2 });
    cache.set('a', entry('a'), cache.generation, T0);
    cache.set('b', entry('b'), cache.generation, T0);
    expect(cache.get('a', T0)).not.toBeNull(); // a is now the most recent
    cache.set('c', entry('c'), cache.generation, T0);
    expect(cache.size).toBe(2);
    expect(cache.get('b', T0)).toBeNull();
    expect(cache.get('a', T0)?.token.id).toBe('a');
    expect(cache.get('c', T0)?.token.id).toBe('c');
  });

  it('invalidate forgets everything, and a read that began before it is not stored after it', () => {
    const cache = new ApiTokenCache();
    cache.set('a', entry('a'), cache.generation, T0);
    const before = cache.generation; // a resolver starts its database read here
    cache.invalidate(); // a revocation commits and is announced meanwhile
    expect(cache.get('a', T0)).toBeNull();
    cache.set('b', entry('b'), before, T0); // the read's (possibly stale) answer
    expect(cache.get('b', T0)).toBeNull();
    cache.set('b', entry('b'), cache.generation, T0);
    expect(cache.get('b', T0)).not.toBeNull();
  });

  it('updateToken replaces the row (lastUsedAt) without renewing the TTL', () => {
    const cache = new ApiTokenCache();
    cache.set('a', entry('a'), cache.generation, T0);
    cache.updateToken('a', { ...entry('a').token, lastUsedAt: T0 + 30_000 });
    expect(cache.get('a', T0 + 30_000)?.token.lastUsedAt).toBe(T0 + 30_000);
    expect(cache.get('a', T0 + TOKEN_CACHE_TTL_MS)).toBeNull();
  });
});

describe('IdentityChanges', () => {
  it('announce runs this node’s listeners at once and then the broadcast; received runs only the listeners', () => {
    const changes = new IdentityChanges();
    const log: string[] = [];
    changes.subscribe(() => log.push('local'));
    changes.broadcastWith(() => log.push('broadcast'));
    changes.announce();
    expect(log).toEqual(['local', 'broadcast']);
    changes.received();
    expect(log).toEqual(['local', 'broadcast', 'local']);
  });
});
