// API tokens as bearer credentials, acting for their owner: revoked, expired or owner disabled -> 401; role capped by the owner's.
import type { BearerResolver } from './authenticator.js';
import { unauthorized } from '../domain/errors.js';
import { anonymousActor } from './audit-log.js';
import type { IdentityDeps } from './identity-deps.js';
import { claimExpiredAudit, findApiTokenBySecret, TOKEN_PREFIX, touchApiToken, type ApiToken, type TokenOwner } from './api-token-store.js';
import { tokenCacheKey, type CachedToken } from './api-token-cache.js';
import { personRestriction } from './person-principal.js';
import type { Principal } from './principal.js';
import { lowerRole } from './roles.js';

/**
 * Resolves `svc_live_…` secrets; anything else, and an unknown token, is "not mine", so the
 * workspace-password fallback counts it as a guess. A known token is never counted as a guess,
 * not even when refused (revoked, expired, owner disabled), since nobody guesses a live token.
 *
 * A token acts for its owner, the person who made it (security review H3): its owner is read in
 * the same query as the token, so a disabled owner's tokens stop (401), the owner's current role
 * caps the token's, and a temporary password or missing required two-factor restricts the token
 * as it restricts their sessions (403). Tokens made with the workspace password have no owner and
 * keep their role.
 *
 * That read is paid once per node: a served token and its owner go into `deps.tokenCache`, so
 * later uses cost no SQL (but the `last_used_at` write at most once a minute). The cache forgets
 * everything on any identity change (`deps.changes`, on every node), after 60 seconds, and an
 * entry whose token has expired by the clock is never served: it takes the path below again.
 * Refused tokens are not cached.
 */
export function apiTokenBearer(deps: IdentityDeps): BearerResolver {
  const serve = async (key: string, cached: CachedToken, now: number): Promise<Principal> => {
    const touched = await touchApiToken(deps.db, cached.token, now);
    if (touched !== cached.token) deps.tokenCache.updateToken(key, touched);
    return tokenPrincipal(deps, touched, cached.owner);
  };
  return async (secret, ctx) => {
    if (!secret.startsWith(TOKEN_PREFIX)) return null;
    const key = tokenCacheKey(secret);
    const at = deps.clock.now();
    const hit = deps.tokenCache.get(key, at);
    if (hit) return serve(key, hit, at);
    // Taken before the read: a change announced while it runs keeps its (possibly older) answer out of the cache.
    const generation = deps.tokenCache.generation;
    const found = await findApiTokenBySecret(deps.db, secret);
    if (!found) return null;
    const { token, owner } = found;
    const now = deps.clock.now();
    const refuse = async (reason: string, message: string, extra: Record<string, unknown> = {}): Promise<never> => {
      await deps.audit({
        ...anonymousActor,
        action: 'api.bearer_failed',
        target: token.name,
        detail: { reason, tokenId: token.id, prefix: token.prefix, ...extra },
        ip: ctx.ip,
      });
      throw unauthorized(message);
    };
    if (token.revokedAt !== null) return refuse('revoked token', 'This API token was revoked');
    if (token.expiresAt !== null && token.expiresAt <= now) {
      const date = new Date(token.expiresAt).toISOString();
      if (await claimExpiredAudit(deps.db, token.id, now))
        await deps.audit({
          ...anonymousActor,
          action: 'api.token_expired',
          target: token.name,
          detail: { tokenId: token.id, prefix: token.prefix, expiresAt: token.expiresAt },
          ip: ctx.ip,
        });
      throw unauthorized(`This API token expired on ${date}`);
    }
    // The token acts for its owner, so the audit says whose state refused it.
    if (owner.kind === 'missing') return refuse('token owner missing', "This API token's owner no longer exists", { ownerId: owner.id });
    if (owner.kind === 'person' && !owner.enabled)
      return refuse('token owner disabled', "This API token's owner is disabled", { ownerId: owner.id, owner: owner.email });
    deps.tokenCache.set(key, found, generation, now);
    return serve(key, found, now);
  };
}

/** The token's principal: its own role, capped by its owner's current role and carrying the owner's restriction. */
async function tokenPrincipal(deps: IdentityDeps, token: ApiToken, owner: TokenOwner): Promise<Principal> {
  const base: Principal = { kind: 'token', id: token.id, role: token.role, actor: `token:${token.name}`, via: 'bearer', personId: null };
  if (owner.kind !== 'person') return base;
  // The two-factor requirement is not cached here: the policy keeps its own 10-second cache (spec: within 30 s).
  const restricted = await personRestriction(owner, deps.policy);
  return { ...base, role: lowerRole(token.role, owner.role), personId: owner.id, ...(restricted ? { restricted } : {}) };
}
