// API tokens as bearer credentials: revoked or expired -> 401 (expiry date in the message), last use recorded.
import type { BearerResolver } from './authenticator.js';
import { unauthorized } from '../domain/errors.js';
import { anonymousActor } from './audit-log.js';
import type { IdentityDeps } from './identity-deps.js';
import { claimExpiredAudit, findApiTokenBySecret, TOKEN_PREFIX, touchApiToken } from './api-token-store.js';

/** Resolves `svc_live_…` secrets; anything else is "not mine" so the other resolvers get a turn. */
export function apiTokenBearer(deps: IdentityDeps): BearerResolver {
  return async (secret, ctx) => {
    if (!secret.startsWith(TOKEN_PREFIX)) return null;
    const token = await findApiTokenBySecret(deps.db, secret);
    if (!token) return null;
    const now = deps.clock.now();
    if (token.revokedAt !== null) {
      await deps.audit({
        ...anonymousActor,
        action: 'api.bearer_failed',
        target: token.name,
        detail: { reason: 'revoked token', tokenId: token.id, prefix: token.prefix },
        ip: ctx.ip,
      });
      throw unauthorized('This API token was revoked');
    }
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
    await touchApiToken(deps.db, token, now);
    return { kind: 'token', id: token.id, role: token.role, actor: `token:${token.name}`, via: 'bearer' };
  };
}
