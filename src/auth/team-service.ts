// Team management (spec "Team management"): add, change role, reset password, disable/enable, reset two-factor.
import { DomainError, forbidden, notFound } from '../domain/errors.js';
import type { Queryable } from '../db/db.js';
import { auditActorOf, type AuditActor } from './audit-log.js';
import type { IdentityDeps } from './identity-deps.js';
import { hashPassword } from './password-hash.js';
import {
  countOtherActiveOperators,
  findPersonByEmail,
  insertPerson,
  listPeople,
  lockPerson,
  personView,
  updatePerson,
  type Person,
  type PersonView,
} from './people-store.js';
import type { Principal } from './principal.js';
import { roleAtLeast, type Role } from './roles.js';
import { newId } from './secret-tokens.js';
import { deleteSessionsOfPerson } from './session-store.js';
import { temporaryPassword } from './temporary-password.js';
import { teamIsEmpty } from './team-size.js';
import type { TwoFactorRequirement } from './two-factor-policy.js';

const isSelf = (actor: Principal, id: string): boolean => actor.kind === 'person' && actor.id === id;

async function loadForChange(q: Queryable, id: string): Promise<Person> {
  // Operators are locked together so two concurrent demotions cannot both pass the last-operator check.
  await q.query("SELECT id FROM people WHERE role = 'operator' FOR UPDATE");
  const person = await lockPerson(q, id);
  if (!person) throw notFound('Person');
  return person;
}

/** Without a workspace password, someone must stay able to manage the team. */
async function guardLastOperator(deps: IdentityDeps, q: Queryable, person: Person, next: { role: Role; enabled: boolean }) {
  if (deps.workspacePassword) return;
  const staysOperator = next.role === 'operator' && next.enabled;
  if (person.role !== 'operator' || !person.enabled || staysOperator) return;
  if ((await countOtherActiveOperators(q, person.id)) === 0)
    throw new DomainError('last_operator', 'The last active operator cannot be demoted or disabled', 'conflict');
}

export async function listTeam(deps: IdentityDeps): Promise<PersonView[]> {
  return (await listPeople(deps.db)).map(personView);
}

/**
 * Adds a person with a generated 20-character temporary password (shown once). The first
 * operator of an empty team is audited as `team.first_operator`.
 */
export async function addPerson(
  deps: IdentityDeps,
  actor: AuditActor,
  input: { email: string; name?: string | null; role: Role },
  ip: string | null,
): Promise<{ person: PersonView; temporaryPassword: string }> {
  const email = input.email.trim();
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password, deps.iterations);
  const { person, wasEmpty } = await deps.db.tx(async (client) => {
    await client.query('LOCK TABLE people IN SHARE ROW EXCLUSIVE MODE');
    if (await findPersonByEmail(client, email))
      throw new DomainError('duplicate_person', 'A person with that email is already in the team', 'conflict');
    const wasEmpty = await teamIsEmpty(client);
    const person = await insertPerson(client, {
      id: newId('usr'),
      email,
      name: input.name?.trim() || null,
      role: input.role,
      passwordHash,
      passwordTemporary: true,
      createdBy: actor.actor,
      now: deps.clock.now(),
    });
    return { person, wasEmpty };
  });
  const first = wasEmpty && person.role === 'operator';
  await deps.audit({
    ...actor,
    action: first ? 'team.first_operator' : 'team.user_added',
    target: person.email,
    detail: { personId: person.id, role: person.role },
    ip,
  });
  return { person: personView(person), temporaryPassword: password };
}

/** Changes role and/or enabled; you cannot lower your own role or disable yourself. */
export async function updateTeamMember(
  deps: IdentityDeps,
  actor: Principal,
  id: string,
  change: { role?: Role; enabled?: boolean },
  ip: string | null,
): Promise<PersonView> {
  if (isSelf(actor, id) && change.enabled === false) throw forbidden('You cannot disable yourself');
  const { before, after } = await deps.db.tx(async (client) => {
    const before = await loadForChange(client, id);
    const role = change.role ?? before.role;
    const enabled = change.enabled ?? before.enabled;
    if (isSelf(actor, id) && !roleAtLeast(role, before.role)) throw forbidden('You cannot lower your own role');
    await guardLastOperator(deps, client, before, { role, enabled });
    const after = await updatePerson(client, id, { role, enabled }, deps.clock.now());
    // A disabled person's sessions end at once.
    if (before.enabled && !enabled) await deleteSessionsOfPerson(client, id);
    return { before, after };
  });
  // The person's API tokens follow their role and enabled flag: cached tokens are forgotten on every node.
  deps.changes.announce();
  const who = auditActorOf(actor);
  if (before.role !== after.role)
    await deps.audit({ ...who, action: 'team.role_changed', target: after.email, detail: { personId: id, from: before.role, to: after.role }, ip });
  if (before.enabled !== after.enabled)
    await deps.audit({
      ...who,
      action: after.enabled ? 'team.user_enabled' : 'team.user_disabled',
      target: after.email,
      detail: { personId: id },
      ip,
    });
  return personView(after);
}

/** A new temporary password; the person is signed out everywhere. */
export async function resetPassword(deps: IdentityDeps, actor: Principal, id: string, ip: string | null): Promise<string> {
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password, deps.iterations);
  const person = await deps.db.tx(async (client) => {
    const person = await lockPerson(client, id);
    if (!person) throw notFound('Person');
    await updatePerson(client, id, { passwordHash, passwordTemporary: true }, deps.clock.now());
    await deleteSessionsOfPerson(client, id);
    return person;
  });
  // A temporary password restricts the person's API tokens: cached tokens are forgotten.
  deps.changes.announce();
  await deps.audit({ ...auditActorOf(actor), action: 'team.password_reset', target: person.email, detail: { personId: id }, ip });
  return password;
}

/** Turns a person's two-factor off (codes, secret, recovery codes); not your own. */
export async function resetTwoFactor(deps: IdentityDeps, actor: Principal, id: string, ip: string | null): Promise<void> {
  if (isSelf(actor, id)) throw forbidden('You cannot reset your own two-factor');
  const person = await deps.db.tx(async (client) => {
    const person = await lockPerson(client, id);
    if (!person) throw notFound('Person');
    await updatePerson(client, id, { totpSecret: null, totpEnabledAt: null, totpPendingSecret: null }, deps.clock.now());
    await client.query('DELETE FROM recovery_codes WHERE person_id = $1', [id]);
    await client.query('DELETE FROM totp_used_steps WHERE person_id = $1', [id]);
    return person;
  });
  // Two-factor off may restrict the person's API tokens (when the requirement covers them).
  deps.changes.announce();
  await deps.audit({ ...auditActorOf(actor), action: 'team.two_factor_reset', target: person.email, detail: { personId: id }, ip });
}

/** Sets who must use two-factor; effective on this node at once, on others within 30 seconds. */
export async function setTwoFactorRequirement(
  deps: IdentityDeps,
  actor: Principal,
  value: TwoFactorRequirement,
  ip: string | null,
): Promise<TwoFactorRequirement> {
  const from = await deps.policy.requirement();
  await deps.policy.set(value);
  await deps.audit({ ...auditActorOf(actor), action: 'team.two_factor_requirement', target: null, detail: { from, to: value }, ip });
  return value;
}
