// Dashboard sign-in (spec "Failed-sign-in throttling", "Two-factor sign-in"): password step, code step, sessions.
import { anonymousActor } from './audit-log.js';
import { safeEqual } from './constant-time.js';
import type { IdentityDeps, RequestInfo } from './identity-deps.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { findPersonByEmail, findPersonById, type Person } from './people-store.js';
import { consumeRecoveryCode, countRecoveryCodes } from './recovery-codes.js';
import { createChallenge, createSession, deleteChallenge, findChallenge } from './session-store.js';
import { codeStepRule, pairKey, signInRules, throttleEmail } from './sign-in-keys.js';
import { matchTotp } from './totp.js';
import { claimTotpStep } from './totp-used-steps.js';
import { openTotpSecret } from './totp-secret-seal.js';
import { resealTotpSecret } from './totp-reseal.js';

export type SignInResult =
  | { kind: 'session'; token: string; sessionId: string; next: string | null }
  | { kind: 'two_factor'; challengeToken: string }
  | { kind: 'failed' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type CodeResult =
  | { kind: 'session'; token: string; sessionId: string; next: string | null }
  | { kind: 'expired' }
  | { kind: 'failed' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** A hash to verify against when the email is unknown, so both paths cost one PBKDF2. */
let decoy: Promise<string> | null = null;

type FailureReason = 'unknown email' | 'wrong password' | 'disabled' | 'no password set' | 'wrong workspace password';

/** What the password step found: a person, the workspace password (empty email), or a refusal. */
export type PasswordCheck =
  | { kind: 'person'; person: Person }
  | { kind: 'workspace' }
  | { kind: 'failed' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * The password step's check, shared by dashboard sign-in and the consent pages of connected apps.
 * The attempt is reserved against the three limits before the password is looked at (atomically,
 * so a parallel burst gets exactly the limit of checks), so a throttled attempt is refused even with
 * the correct password; the caller learns only that email and password did not match. A wrong
 * attempt's reservation is its failure record; a right one clears the pair's count.
 */
export async function checkSignInPassword(
  deps: IdentityDeps,
  form: { email: string; password: string },
  req: RequestInfo,
): Promise<PasswordCheck> {
  const email = form.email.trim();
  const counted = throttleEmail(email);
  const reserved = await deps.throttle.reserve(signInRules(email, req.ip));
  if (reserved.kind === 'throttled') {
    await deps.audit({ ...anonymousActor, action: 'auth.sign_in_throttled', target: counted, detail: { email: counted }, ip: req.ip });
    return { kind: 'throttled', retryAfterSeconds: reserved.retryAfterSeconds };
  }

  let person: Person | null = null;
  let failure: FailureReason | null = null;
  if (email === '') {
    const wp = deps.workspacePassword;
    if (!wp || !safeEqual(form.password, wp)) failure = 'wrong workspace password';
  } else {
    person = await findPersonByEmail(deps.db, email);
    if (!person) {
      await verifyPassword(form.password, await (decoy ??= hashPassword('decoy-password-for-timing', deps.iterations)));
      failure = 'unknown email';
    } else if (!person.passwordHash) failure = 'no password set';
    else if (!(await verifyPassword(form.password, person.passwordHash))) failure = 'wrong password';
    else if (!person.enabled) failure = 'disabled';
  }
  if (failure) {
    await deps.audit({ ...anonymousActor, action: 'auth.sign_in_failed', target: counted, detail: { email: counted, reason: failure }, ip: req.ip });
    return { kind: 'failed' };
  }
  await deps.throttle.release(reserved);
  await deps.throttle.clear(pairKey(email, req.ip));
  return person ? { kind: 'person', person } : { kind: 'workspace' };
}

/** The dashboard's password step: a session, or a two-factor challenge for a person who has it. */
export async function signIn(
  deps: IdentityDeps,
  form: { email: string; password: string; next: string | null },
  req: RequestInfo,
): Promise<SignInResult> {
  const checked = await checkSignInPassword(deps, form, req);
  if (checked.kind === 'failed' || checked.kind === 'throttled') return checked;
  const person = checked.kind === 'person' ? checked.person : null;
  const now = deps.clock.now();
  if (person && person.totpEnabledAt !== null) {
    const challenge = await createChallenge(deps.db, { personId: person.id, nextPath: form.next, now });
    return { kind: 'two_factor', challengeToken: challenge.token };
  }
  const session = await createSession(deps.db, { personId: person?.id ?? null, userAgent: req.userAgent, ip: req.ip, now });
  await deps.audit({
    actor: person ? person.email : 'operator',
    actorId: person?.id ?? null,
    actorKind: person ? 'person' : 'workspace',
    action: 'auth.sign_in',
    target: person ? person.email : 'workspace',
    detail: { twoFactor: null, sessionId: session.id },
    ip: req.ip,
  });
  return { kind: 'session', token: session.token, sessionId: session.id, next: form.next };
}

/** What the code step found: the person and how they proved it, or a refusal. */
export type CodeCheck =
  | { kind: 'person'; person: Person; method: 'app' | 'recovery code'; nextPath: string | null }
  | { kind: 'expired' }
  | { kind: 'failed' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * The code step's check, shared by dashboard sign-in and the consent pages: an app code (each step
 * once) or a recovery code (each once); 5 failures per person per window, reserved before the code
 * is checked like the password step. A right code ends the challenge (used once) and is audited
 * when it was a recovery code.
 */
export async function checkSignInCode(deps: IdentityDeps, challengeToken: string | null, code: string, req: RequestInfo): Promise<CodeCheck> {
  const now = deps.clock.now();
  const challenge = challengeToken ? await findChallenge(deps.db, challengeToken, now) : null;
  if (!challenge) return { kind: 'expired' };
  const person = await findPersonById(deps.db, challenge.personId);
  if (!person || !person.enabled || !person.totpSecret) return { kind: 'expired' };
  const actor = { actor: person.email, actorId: person.id, actorKind: 'person' };

  const rule = codeStepRule(person.id);
  const reserved = await deps.throttle.reserve([rule]);
  if (reserved.kind === 'throttled') {
    await deps.audit({ ...actor, action: 'auth.two_factor_throttled', target: person.email, detail: null, ip: req.ip });
    return { kind: 'throttled', retryAfterSeconds: reserved.retryAfterSeconds };
  }

  let method: 'app' | 'recovery code' | null = null;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed.replace(/\s+/g, ''))) {
    const opened = openTotpSecret(deps.secretKey, person.id, person.totpSecret);
    if (!opened) deps.logger.warn({ personId: person.id }, 'two-factor secret does not open: sealed for another person or under another key');
    const step = opened ? matchTotp(opened.secret, trimmed, now) : null;
    if (step !== null && (await claimTotpStep(deps.db, person.id, step, now))) {
      method = 'app';
      // A secret still sealed the pre-purpose-key way is re-sealed once a code proved it.
      if (opened?.legacy) await resealTotpSecret(deps, person.id, 'totpSecret', person.totpSecret, opened.secret);
    }
  } else if (await consumeRecoveryCode(deps.db, person.id, trimmed)) method = 'recovery code';

  if (!method) {
    await deps.audit({ ...actor, action: 'auth.two_factor_failed', target: person.email, detail: null, ip: req.ip });
    return { kind: 'failed' };
  }
  // Clears the person's code-step count, this attempt's reservation included.
  await deps.throttle.clear(rule.key);
  await deleteChallenge(deps.db, challenge.id);
  if (method === 'recovery code')
    await deps.audit({
      ...actor,
      action: 'auth.recovery_code_used',
      target: person.email,
      detail: { remaining: await countRecoveryCodes(deps.db, person.id) },
      ip: req.ip,
    });
  return { kind: 'person', person, method, nextPath: challenge.nextPath };
}

/** The dashboard's code step: a session once the code is right. */
export async function completeTwoFactor(
  deps: IdentityDeps,
  challengeToken: string | null,
  code: string,
  req: RequestInfo,
): Promise<CodeResult> {
  const checked = await checkSignInCode(deps, challengeToken, code, req);
  if (checked.kind !== 'person') return checked;
  const { person, method } = checked;
  const session = await createSession(deps.db, { personId: person.id, userAgent: req.userAgent, ip: req.ip, now: deps.clock.now() });
  await deps.audit({
    actor: person.email,
    actorId: person.id,
    actorKind: 'person',
    action: 'auth.sign_in',
    target: person.email,
    detail: { twoFactor: method, sessionId: session.id },
    ip: req.ip,
  });
  return { kind: 'session', token: session.token, sessionId: session.id, next: checked.nextPath };
}
