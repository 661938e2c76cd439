// Resolves the dashboard session cookie to a Principal: 30-day absolute / 7-day idle expiry, last use every 5 minutes.
import type { CredentialRequest } from './credential-request.js';
import type { SessionResolver } from './authenticator.js';
import type { IdentityDeps } from './identity-deps.js';
import { findPersonById } from './people-store.js';
import { personPrincipal, workspaceSessionPrincipal } from './person-principal.js';
import { deleteSession, findSessionByToken, sessionExpired, touchSession } from './session-store.js';
import { readCookie, type CookieNames } from './session-cookie.js';

export function sessionResolver(deps: IdentityDeps, names: () => CookieNames): SessionResolver {
  return async (ctx: CredentialRequest) => {
    const token = readCookie(ctx, names().session);
    if (!token) return null;
    const session = await findSessionByToken(deps.db, token);
    if (!session) return null;
    const now = deps.clock.now();
    if (sessionExpired(session, now)) {
      await deleteSession(deps.db, session.id);
      return null;
    }
    if (session.personId === null) {
      await touchSession(deps.db, session, now);
      return workspaceSessionPrincipal(session.id);
    }
    const person = await findPersonById(deps.db, session.personId);
    if (!person || !person.enabled) {
      await deleteSession(deps.db, session.id);
      return null;
    }
    await touchSession(deps.db, session, now);
    return personPrincipal(person, deps.policy, 'session', session.id);
  };
}
