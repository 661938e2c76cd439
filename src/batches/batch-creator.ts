// Who a batch runs as: the creator's principal kept at start, and that principal as the identity tables say it may act now.
import type { Queryable } from '../db/db.js';
import type { Principal } from '../auth/principal.js';
import { lowerRole, type Role } from '../auth/roles.js';
import { DomainError } from '../domain/errors.js';

/** What a batch keeps of its creator: enough to act as them later, on any node (no secret, no session). */
export interface CreatorSnapshot {
  kind: Principal['kind'];
  id: string | null;
  role: Role;
  actor: string;
  via: Principal['via'];
  personId?: string | null;
  email?: string;
}

export function creatorSnapshot(p: Principal): CreatorSnapshot {
  return {
    kind: p.kind,
    id: p.id,
    role: p.role,
    actor: p.actor,
    via: p.via,
    ...(p.personId !== undefined ? { personId: p.personId } : {}),
    ...(p.email !== undefined ? { email: p.email } : {}),
  };
}

interface CreatorStateRow {
  person: { enabled: boolean; role: Role } | null;
  token: { revoked: boolean; expires_at: string | null; role: Role } | null;
  app: { revoked: boolean; role: Role } | null;
}

/** The refusal of a creator who can no longer act: each further order of the batch is skipped with it. */
const cannotAct = (message: string) => new DomainError('creator_cannot_act', message, 'forbidden');

/**
 * The creator as they may act now, read like a request's credential is (docs/batches.md "Who it runs as"): a
 * person who is disabled or gone, a revoked or expired token, a disconnected app, or a token whose owner is
 * disabled can no longer act (a refusal); a lowered role caps the one kept. The workspace password acts as
 * it did. Later two-factor or temporary-password restrictions do not stop a running batch.
 */
export async function currentCreator(q: Queryable, c: CreatorSnapshot, now: number): Promise<Principal> {
  if (c.kind === 'workspace') return { kind: c.kind, id: c.id, role: c.role, actor: c.actor, via: c.via };
  const personId = c.kind === 'person' ? c.id : (c.personId ?? null);
  const { rows } = await q.query<CreatorStateRow>(
    `SELECT (SELECT json_build_object('enabled', enabled, 'role', role) FROM people WHERE id = $1) AS person,
            (SELECT json_build_object('revoked', revoked_at IS NOT NULL, 'expires_at', expires_at, 'role', role) FROM api_tokens WHERE id = $2) AS token,
            (SELECT json_build_object('revoked', revoked_at IS NOT NULL, 'role', role) FROM oauth_grants WHERE id = $3) AS app`,
    [personId, c.kind === 'token' ? c.id : null, c.kind === 'app' ? c.id : null],
  );
  const state = rows[0];
  let role = c.role;
  if (c.kind === 'token') {
    if (!state.token || state.token.revoked) throw cannotAct(`The batch's creator ${c.actor} was revoked: nothing more is done as them`);
    if (state.token.expires_at !== null && Number(state.token.expires_at) <= now) throw cannotAct(`The batch's creator ${c.actor} expired: nothing more is done as them`);
    role = lowerRole(role, state.token.role);
  }
  if (c.kind === 'app') {
    if (!state.app || state.app.revoked) throw cannotAct(`The batch's creator ${c.actor} was disconnected: nothing more is done as them`);
    role = lowerRole(role, state.app.role);
  }
  if (personId !== null) {
    if (!state.person) throw cannotAct(`The batch's creator ${c.actor} no longer exists: nothing more is done as them`);
    if (!state.person.enabled) throw cannotAct(`The batch's creator ${c.actor} is disabled: nothing more is done as them`);
    role = lowerRole(role, state.person.role);
  }
  return {
    kind: c.kind,
    id: c.id,
    role,
    actor: c.actor,
    via: c.via,
    ...(c.personId !== undefined ? { personId: c.personId } : {}),
    ...(c.email !== undefined ? { email: c.email } : {}),
  };
}
