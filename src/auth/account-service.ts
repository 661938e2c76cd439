// The Account page's actions: password change, two-factor enrol/disable, recovery codes, sessions.
import { DomainError, forbidden, notFound } from '../domain/errors.js';
import type { AuditActor } from './audit-log.js';
import type { IdentityDeps, RequestInfo } from './identity-deps.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { passwordProblem } from './password-rules.js';
import { findPersonById, updatePerson, type Person } from './people-store.js';
import type { Principal } from './principal.js';
import { replaceRecoveryCodes } from './recovery-codes.js';
import { deleteSession, deleteSessionsOfPerson, findSession, listSessionsOfPerson, type SessionRow } from './session-store.js';
import { accountPageRule } from './sign-in-keys.js';
import { matchTotp, newTotpSecret, totpUri } from './totp.js';
import { claimTotpStep } from './totp-used-steps.js';
import { openTotpSecret, sealTotpSecret } from './totp-secret-seal.js';
import type { Reservation } from './failure-throttle.js';

/** The signed-in person behind a principal; the workspace password has no Account-page identity. */
export async function accountPerson(deps: IdentityDeps, principal: Principal): Promise<Person> {
  if (principal.kind !== 'person' || !principal.id) throw forbidden('The workspace password has no account');
  const person = await findPersonById(deps.db, principal.id);
  if (!person) throw notFound('Person');
  return person;
}

const actorOf = (p: Person): AuditActor => ({ actor: p.email, actorId: p.id, actorKind: 'person' });

/**
 * The password check of an Account-page form: one attempt is reserved against the person's limit
 * (5 per window, 429 over it) before the password is compared, atomically, so parallel forms get
 * no more than the limit of checks. A wrong password leaves the reservation as its failure; the
 * caller releases it once every check of the form passed (enabling two-factor also needs a code).
 */
async function reservePasswordCheck(deps: IdentityDeps, person: Person, password: string): Promise<Reservation> {
  const reserved = await deps.throttle.reserve([accountPageRule(person.id)]);
  if (reserved.kind === 'throttled')
    throw new DomainError('throttled', 'Too many wrong attempts; try again later', 'throttled', { retryAfterSeconds: reserved.retryAfterSeconds });
  if (!(await verifyPassword(password, person.passwordHash))) throw new DomainError('wrong_password', 'That password is not correct', 'invalid_input');
  return reserved;
}

/** The password check of a form that needs nothing else: a right password is not counted. */
async function confirmPassword(deps: IdentityDeps, person: Person, password: string): Promise<void> {
  await deps.throttle.release(await reservePasswordCheck(deps, person, password));
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
  if (problem) throw new DomainError('weak_password', problem, 'invalid_input');
  if (await verifyPassword(form.password, person.passwordHash))
    throw new DomainError('same_password', 'Choose a password different from the current one', 'invalid_input');
  const passwordHash = await hashPassword(form.password, deps.iterations);
  await deps.db.tx(async (client) => {
    await updatePerson(client, person.id, { passwordHash, passwordTemporary: false }, deps.clock.now());
    await deleteSessionsOfPerson(client, person.id, principal.sessionId ?? null);
  });
  // The temporary state restricted the person's API tokens; cached ones are forgotten.
  deps.changes.announce();
  await deps.audit({ ...actorOf(person), action: 'auth.password_changed', target: person.email, detail: null, ip: req.ip });
}

/** The pending enrolment's secret, as the enrolment page shows it; null when none is pending (or it does not open). */
export async function pendingEnrolment(
  deps: IdentityDeps,
  principal: Principal,
  issuer: string,
): Promise<{ secret: string; uri: string } | null> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt !== null) throw new DomainError('two_factor_on', 'Two-factor is already on', 'conflict');
  const secret = openPending(deps, person);
  return secret === null ? null : { secret, uri: totpUri(secret, person.email, issuer) };
}

/** The pending secret in clear, or null. Only reads: a legacy-sealed value is re-sealed when enrolment completes. */
function openPending(deps: IdentityDeps, person: Person): string | null {
  if (!person.totpPendingSecret) return null;
  const opened = openTotpSecret(deps.secretKey, person.id, person.totpPendingSecret);
  if (!opened) deps.logger.warn({ personId: person.id }, 'pending two-factor secret does not open: sealed for another person or under another key');
  return opened?.secret ?? null;
}

/**
 * The pending enrolment, creating one only when none is pending (runtime contract: the two-factor
 * page shows a secret). It never replaces a pending secret (security review L7: a cross-site
 * navigation carrying the Lax cookie used to reset an enrolment in progress); the creation is a
 * compare-and-set on what was read, so two page loads at once show the same secret.
 */
export async function pendingOrNewEnrolment(deps: IdentityDeps, principal: Principal, issuer: string): Promise<{ secret: string; uri: string }> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt !== null) throw new DomainError('two_factor_on', 'Two-factor is already on', 'conflict');
  const existing = openPending(deps, person);
  if (existing !== null) return { secret: existing, uri: totpUri(existing, person.email, issuer) };
  // Compare-and-set on the value just read (none, or one that does not open): a secret another load set meanwhile stays.
  const sealed = sealTotpSecret(deps.secretKey, person.id, newTotpSecret());
  await deps.db.query('UPDATE people SET totp_pending_secret = $2, updated_at = $3 WHERE id = $1 AND totp_pending_secret IS NOT DISTINCT FROM $4', [
    person.id,
    sealed,
    deps.clock.now(),
    person.totpPendingSecret,
  ]);
  const created = await pendingEnrolment(deps, principal, issuer);
  if (!created) throw new DomainError('no_enrolment', 'Two-factor enrolment could not start; reload the page', 'conflict');
  return created;
}

/**
 * Starts enrolment over with a new pending secret, replacing any earlier unconfirmed one: the
 * "Start over" button, a POST under the browser protections (security review L7).
 */
export async function startEnrolment(deps: IdentityDeps, principal: Principal): Promise<void> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt !== null) throw new DomainError('two_factor_on', 'Two-factor is already on', 'conflict');
  const sealed = sealTotpSecret(deps.secretKey, person.id, newTotpSecret());
  await updatePerson(deps.db, person.id, { totpPendingSecret: sealed }, deps.clock.now());
}

/** Turns two-factor on with the password and a code from the app; returns the 10 recovery codes (shown once). */
export async function enableTwoFactor(
  deps: IdentityDeps,
  principal: Principal,
  form: { password: string; code: string },
  req: RequestInfo,
): Promise<string[]> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt !== null) throw new DomainError('two_factor_on', 'Two-factor is already on', 'conflict');
  const secret = openPending(deps, person);
  if (secret === null) throw new DomainError('no_enrolment', 'Start again: open the two-factor page for a new secret', 'invalid_input');
  // The password and the code are one attempt: a wrong one of either leaves it counted.
  const reservation = await reservePasswordCheck(deps, person, form.password);
  const now = deps.clock.now();
  const step = matchTotp(secret, form.code, now);
  if (step === null || !(await claimTotpStep(deps.db, person.id, step, now)))
    throw new DomainError('wrong_code', 'That code is not correct; check the time on your device and try the next code', 'invalid_input');
  await deps.throttle.release(reservation);
  const codes = await deps.db.tx(async (client) => {
    // Sealed afresh, so a pending value in the legacy form is not carried over.
    const totpSecret = sealTotpSecret(deps.secretKey, person.id, secret);
    await updatePerson(client, person.id, { totpSecret, totpEnabledAt: now, totpPendingSecret: null }, now);
    return replaceRecoveryCodes(client, person.id, now);
  });
  // Two-factor on may lift the restriction of the person's API tokens.
  deps.changes.announce();
  await deps.audit({ ...actorOf(person), action: 'auth.two_factor_enabled', target: person.email, detail: null, ip: req.ip });
  return codes;
}

/** Turns two-factor off with the password; refused while the requirement covers the person. */
export async function disableTwoFactor(deps: IdentityDeps, principal: Principal, password: string, req: RequestInfo): Promise<void> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt === null) throw new DomainError('two_factor_off', 'Two-factor is not on', 'conflict');
  if (await deps.policy.covers(person.role)) throw forbidden('Two-factor is required for your role and cannot be turned off');
  await confirmPassword(deps, person, password);
  await deps.db.tx(async (client) => {
    await updatePerson(client, person.id, { totpSecret: null, totpEnabledAt: null, totpPendingSecret: null }, deps.clock.now());
    await client.query('DELETE FROM recovery_codes WHERE person_id = $1', [person.id]);
  });
  // What the person's API tokens resolve to reads their two-factor state.
  deps.changes.announce();
  await deps.audit({ ...actorOf(person), action: 'auth.two_factor_disabled', target: person.email, detail: null, ip: req.ip });
}

/** Replaces every recovery code with a new set of 10 (password needed). */
export async function newRecoveryCodes(deps: IdentityDeps, principal: Principal, password: string, req: RequestInfo): Promise<string[]> {
  const person = await accountPerson(deps, principal);
  if (person.totpEnabledAt === null) throw new DomainError('two_factor_off', 'Turn two-factor on first', 'conflict');
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
