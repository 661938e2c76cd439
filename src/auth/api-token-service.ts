// API token management (operator): create (secret shown once), list, revoke; audited `token.*`.
import { notFound } from '../domain/errors.js';
import { auditActorOf } from './audit-log.js';
import type { IdentityDeps } from './identity-deps.js';
import { actingPersonId, type Principal } from './principal.js';
import type { Role } from './roles.js';
import { apiTokenView, insertApiToken, listApiTokens, revokeApiToken, type TokenLifetime } from './api-token-store.js';

export type ApiTokenView = ReturnType<typeof apiTokenView>;

export async function createApiToken(
  deps: IdentityDeps,
  actor: Principal,
  input: { name: string; role: Role; expiresIn: TokenLifetime },
  ip: string | null,
): Promise<{ token: ApiTokenView; secret: string }> {
  const now = deps.clock.now();
  // The person the token will act for (null: the workspace password); a token made through another token acts for that token's owner.
  const ownerId = actingPersonId(actor);
  const { token, secret } = await insertApiToken(deps.db, {
    name: input.name.trim(),
    role: input.role,
    lifetime: input.expiresIn,
    createdBy: actor.actor,
    createdById: ownerId,
    now,
  });
  await deps.audit({
    ...auditActorOf(actor),
    action: 'token.created',
    target: token.name,
    detail: { tokenId: token.id, role: token.role, prefix: token.prefix, expiresAt: token.expiresAt, ownerId },
    ip,
  });
  return { token: apiTokenView(token, now), secret };
}

export async function listTokens(deps: IdentityDeps): Promise<ApiTokenView[]> {
  const now = deps.clock.now();
  return (await listApiTokens(deps.db)).map((t) => apiTokenView(t, now));
}

export async function revokeToken(deps: IdentityDeps, actor: Principal, id: string, ip: string | null): Promise<void> {
  const token = await revokeApiToken(deps.db, id, deps.clock.now());
  if (!token) throw notFound('API token');
  // Every node's token cache forgets it before this answers (on other nodes as soon as Redis carries it).
  deps.changes.announce();
  await deps.audit({
    ...auditActorOf(actor),
    action: 'token.revoked',
    target: token.name,
    detail: { tokenId: token.id, prefix: token.prefix },
    ip,
  });
}
