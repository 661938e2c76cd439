// The bearer of a connected app: an access token of our authorization server, valid only at the endpoint it was issued for.
import type { BearerResolver } from '../auth/authenticator.js';
import type { Queryable } from '../db/db.js';
import type { Principal } from '../auth/principal.js';
import { DomainError, unauthorized } from '../domain/errors.js';
import { findPersonById } from '../auth/people-store.js';
import { personRestriction } from '../auth/person-principal.js';
import type { TwoFactorPolicy } from '../auth/two-factor-policy.js';
import { lowerRole } from '../auth/roles.js';
import { findConnectedApp } from '../auth/connected-apps.js';
import { kindOfAudience } from './oauth-provider.js';
import type { OauthServer } from './oauth-server.js';
import type { AppKind } from './oauth-resources.js';

/** The endpoint a request is for, by its path. */
export function kindOfPath(path: string | undefined): AppKind | null {
  if (path === '/mcp' || path?.startsWith('/mcp/')) return 'mcp';
  if (path === '/a2a' || path?.startsWith('/a2a/')) return 'a2a';
  return null;
}

/** Refused as `invalid_token` (RFC 6750): the resource answers 401 with that error in its challenge. */
export const invalidToken = (message: string): DomainError => new DomainError('invalid_token', message, 'unauthenticated');

/**
 * Resolves an access token issued by our authorization server; null for anything else (API tokens
 * and the workspace password are other resolvers'). Every request re-reads the grant and the person:
 * a token for the other endpoint, expired or revoked is `invalid_token`; a disconnected app or a
 * disabled person is 401; the role is the lower of the granted and the person's current one; the
 * person's temporary password or missing two-factor restricts the app too. Recorded as
 * `<email> via MCP` / `<email> via A2A`.
 */
export function appTokenBearer(deps: { server: OauthServer; db: Queryable; policy: TwoFactorPolicy }): BearerResolver {
  return async (secret, req) => {
    // An app's token is a credential only at /mcp and /a2a; anywhere else it is not ours to look up (no query spent).
    const at = kindOfPath(req.path);
    if (secret.startsWith('svc_') || !at) return null;
    const provider = await deps.server.get();
    const token = await provider.AccessToken.find(secret);
    if (!token) return null;
    if (token.isExpired) throw invalidToken('The access token has expired');
    const kind = kindOfAudience(deps.server.issuer(), token.aud);
    if (!kind) throw invalidToken('This access token is valid only at the endpoint it was issued for (/mcp or /a2a)');
    if (kind !== at) throw invalidToken(`This access token was issued for /${kind}, not /${at}`);
    const app = token.grantId ? await findConnectedApp(deps.db, token.grantId) : null;
    if (!app || app.revokedAt !== null) throw invalidToken('This app was disconnected');
    const person = await findPersonById(deps.db, app.personId);
    if (!person || !person.enabled) throw unauthorized('The account that connected this app is disabled');
    const restricted = await personRestriction(person, deps.policy);
    const principal: Principal = {
      kind: 'app',
      id: app.id,
      role: lowerRole(app.role, person.role),
      actor: `${person.email} via ${kind === 'mcp' ? 'MCP' : 'A2A'}`,
      via: 'bearer',
      personId: person.id,
      email: person.email,
      ...(restricted ? { restricted } : {}),
    };
    return principal;
  };
}
