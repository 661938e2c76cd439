// Builds the Principal of a signed-in person, with the temporary-password and two-factor restrictions.
import type { Principal } from './principal.js';
import type { Person } from './people-store.js';
import type { TwoFactorPolicy } from './two-factor-policy.js';

/**
 * What blocks a person from everything but the Account page: a temporary password, or the
 * two-factor requirement covering their role while two-factor is off. API tokens they own inherit it.
 */
export async function personRestriction(
  person: Pick<Person, 'passwordTemporary' | 'totpEnabledAt' | 'role'>,
  policy: TwoFactorPolicy,
): Promise<Principal['restricted']> {
  if (person.passwordTemporary) return 'temporary_password';
  if (person.totpEnabledAt === null && (await policy.covers(person.role))) return 'two_factor_required';
  return undefined;
}

export async function personPrincipal(
  person: Person,
  policy: TwoFactorPolicy,
  via: Principal['via'],
  sessionId?: string,
): Promise<Principal> {
  const restricted = await personRestriction(person, policy);
  return {
    kind: 'person',
    id: person.id,
    role: person.role,
    actor: person.email,
    via,
    ...(restricted ? { restricted } : {}),
    ...(sessionId ? { sessionId } : {}),
    email: person.email,
  };
}

/** The workspace password signed in to the dashboard: operator, recorded as `operator`, never restricted. */
export function workspaceSessionPrincipal(sessionId: string): Principal {
  return { kind: 'workspace', id: null, role: 'operator', actor: 'operator', via: 'session', sessionId };
}
