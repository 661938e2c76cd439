// The Account page's actions: password change, two-factor enrol/disable, recovery codes, sessions.
import { DomainError, forbidden, notFound } from '../domain/errors.js';
import type { AuditActor } from './audit-log.js';
import type { IdentityDeps, RequestInfo } from './identity-deps.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { passwordProblem } from './password-rules.js';
import { findPersonById, updatePerson, type Person } from './people-store.js';
import type { Principal } from './principal.js';
import { replaceRecoveryCodes } from './recovery-codes.js';
import { openSecret, sealSecret } from './secret-box.js';
import { deleteSession, deleteSessionsOfPerson, findSession, listSessionsOfPerson, type SessionRow } from './session-store.js';
import { accountPageRule } from './sign-in-keys.js';
import { matchTotp, newTotpSecret, totpUri } from './totp.js';
import { claimTotpStep } from './totp-used-steps.js';

/** The signed-in person behind a principal; the workspace password has no Account-page identity. */
export async function accountPerson(deps: IdentityDeps, principal: Principal): Promise<Person> {
  if (principal.kind !== 'person' || !principal.id) throw forbidden('The workspace password has no account');
  const person = await findPersonById(deps.db, principal.id);
  if (!person) throw notFound('Person');
  return person;
}

const actorOf = (p: Person): AuditActor => ({ actor: p.email, actorId: p.id, actorKind: 'person' });

/** The password check of an Account-page form: throttled (5 per person per window, 429) before it is compared. */
async function confirmPassword(deps: IdentityDeps, person: Person, password: string): Promise<void> {
  const rule = accountPageRule(person.id);
  const throttled = await deps.throttle.check([rule]);
  if (throttled)
    throw new DomainError('throttled', 'Too many wrong attempts; try again later', 429, { retryAfterSeconds: throttled.retryAfterSeconds });
  if (!(await verifyPassword(password, person.passwordHash))) {
    await deps.throttle.record([rule.key]);
    throw new DomainError('wrong_password', 'That password is not correct', 400);
  }
}

/** Chooses a new password: ends the temporary state and every other session. */
export async function changePassword(
  deps: IdentityDeps,
  principal: Principal,
  form: { current: string; password: string },
  req: RequestInfo,
): Promise<void> {
  const person = await accountPerson(deps, principal);
  await confirmPassword(deps, person, form.current);
  const problem = passwordProblem(form.password, person.email);
  if (problem) throw new DomainError('weak_password', problem, 400);
  if (await verifyPassword(form.password, person.passwordHash))
    throw new DomainError('same_password', 'Choose a password different from the current one', 400);
  const passwordHash = await hashPassword(form.password, deps.iterations);
  await deps.db.tx(async (client) => {
    await updatePerson(client, person.id, { passwordHash, passwordTemporary: false }, deps.clock.now());
    await deleteSessionsOfPerson(client, person.id, principal.sessionId ?? null);
  });
  await deps.audit({ ...actorOf(person), action: 'auth.password_changed', target: person.email, detail: null, ip: req.ip });
}

/** A new secret for the enrolment page (replacing any earlier unconfirmed one). */
export async function startEnrolment(
  deps: IdentityDeps,
  principal: Principal,
  issuer: string,
): Promise<{ secret: string; uri: string }> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt !== null) throw new DomainError('two_factor_on', 'Two-factor is already on', 409);
  const secret = newTotpSecret();
  await updatePerson(deps.db, person.id, { totpPendingSecret: sealSecret(deps.secretKey, secret) }, deps.clock.now());
  return { secret, uri: totpUri(secret, person.email, issuer) };
}

/** Turns two-factor on with the password and a code from the app; returns the 10 recovery codes (shown once). */
export async function enableTwoFactor(
  deps: IdentityDeps,
  principal: Principal,
  form: { password: string; code: string },
  req: RequestInfo,
): Promise<string[]> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt !== null) throw new DomainError('two_factor_on', 'Two-factor is already on', 409);
  if (!person.totpPendingSecret) throw new DomainError('no_enrolment', 'Start again: open the two-factor page for a new secret', 400);
  await confirmPassword(deps, person, form.password);
  const now = deps.clock.now();
  const secret = openSecret(deps.secretKey, person.totpPendingSecret);
  const step = matchTotp(secret, form.code, now);
  if (step === null || !(await claimTotpStep(deps.db, person.id, step, now))) {
    await deps.throttle.record([accountPageRule(person.id).key]);
    throw new DomainError('wrong_code', 'That code is not correct; check the time on your device and try the next code', 400);
  }
  const codes = await deps.db.tx(async (client) => {
    await updatePerson(client, person.id, { totpSecret: person.totpPendingSecret, totpEnabledAt: now, totpPendingSecret: null }, now);
    return replaceRecoveryCodes(client, person.id, now);
  });
  await deps.audit({ ...actorOf(person), action: 'auth.two_factor_enabled', target: person.email, detail: null, ip: req.ip });
  return codes;
}

/** Turns two-factor off with the password; refused while the requirement covers the person. */
export async function disableTwoFactor(deps: IdentityDeps, principal: Principal, password: string, req: RequestInfo): Promise<void> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt === null) throw new DomainError('two_factor_off', 'Two-factor is not on', 409);
  if (await deps.policy.covers(person.role)) throw forbidden('Two-factor is required for your role and cannot be turned off');
  await confirmPassword(deps, person, password);
  await deps.db.tx(async (client) => {
    await updatePerson(client, person.id, { totpSecret: null, totpEnabledAt: null, totpPendingSecret: null }, deps.clock.now());
    await client.query('DELETE FROM recovery_codes WHERE person_id = $1', [person.id]);
  });
  await deps.audit({ ...actorOf(person), action: 'auth.two_factor_disabled', target: person.email, detail: null, ip: req.ip });
}

/** Replaces every recovery code with a new set of 10 (password needed). */
export async function newRecoveryCodes(deps: IdentityDeps, principal: Principal, password: string, req: RequestInfo): Promise<string[]> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt === null) throw new DomainError('two_factor_off', 'Turn two-factor on first', 409);
  await confirmPassword(deps, person, password);
  const codes = await deps.db.tx((client) => replaceRecoveryCodes(client, person.id, deps.clock.now()));
  await deps.audit({ ...actorOf(person), action: 'auth.recovery_codes_replaced', target: person.email, detail: null, ip: req.ip });
  return codes;
}

export async function listOwnSessions(deps: IdentityDeps, principal: Principal): Promise<SessionRow[]> {
  if (principal.kind !== 'person' || !principal.id) return [];
  return listSessionsOfPerson(deps.db, principal.id);
}

/** Ends one of your own sessions (another browser); true when it was the current one. */
export async function endOwnSession(deps: IdentityDeps, principal: Principal, sessionId: string, req: RequestInfo): Promise<boolean> {
  const person = await accountPerson(deps, principal);
  const session = await findSession(deps.db, sessionId);
  if (!session || session.personId !== person.id) throw notFound('Session');
  await deleteSession(deps.db, sessionId);
  await deps.audit({ ...actorOf(person), action: 'auth.session_ended', target: person.email, detail: { sessionId }, ip: req.ip });
  return sessionId === principal.sessionId;
}

export async function endOtherSessions(deps: IdentityDeps, principal: Principal, req: RequestInfo): Promise<number> {
  const person = await accountPerson(deps, principal);
  const ended = await deleteSessionsOfPerson(deps.db, person.id, principal.sessionId ?? null);
  await deps.audit({ ...actorOf(person), action: 'auth.other_sessions_ended', target: person.email, detail: { ended }, ip: req.ip });
  return ended;
}
