// Builds the Principal of a signed-in person, with the temporary-password and two-factor restrictions.
import type { Principal } from './principal.js';
import type { Person } from './people-store.js';
import type { TwoFactorPolicy } from './two-factor-policy.js';

export async function personPrincipal(
  person: Person,
  policy: TwoFactorPolicy,
  via: Principal['via'],
  sessionId?: string,
): Promise<Principal> {
  let restricted: Principal['restricted'];
  if (person.passwordTemporary) restricted = 'temporary_password';
  else if (person.totpEnabledAt === null && (await policy.covers(person.role))) restricted = 'two_factor_required';
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
