// Dashboard sign-in (spec "Failed-sign-in throttling", "Two-factor sign-in"): password step, code step, sessions.
import { anonymousActor } from './audit-log.js';
import { safeEqual } from './constant-time.js';
import type { IdentityDeps, RequestInfo } from './identity-deps.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { findPersonByEmail, findPersonById, type Person } from './people-store.js';
import { consumeRecoveryCode, countRecoveryCodes } from './recovery-codes.js';
import { openSecret } from './secret-box.js';
import { createChallenge, createSession, deleteChallenge, findChallenge } from './session-store.js';
import { codeStepRule, pairKey, signInRules, throttleEmail } from './sign-in-keys.js';
import { matchTotp } from './totp.js';
import { claimTotpStep } from './totp-used-steps.js';

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

/**
 * The password step. Throttling is checked first, so a throttled attempt gets 429 even
 * with the correct password; the person learns only that email and password did not match.
 */
export async function signIn(
  deps: IdentityDeps,
  form: { email: string; password: string; next: string | null },
  req: RequestInfo,
): Promise<SignInResult> {
  const email = form.email.trim();
  const counted = throttleEmail(email);
  const rules = signInRules(email, req.ip);
  const throttled = await deps.throttle.check(rules);
  if (throttled) {
    await deps.audit({ ...anonymousActor, action: 'auth.sign_in_throttled', target: counted, detail: { email: counted }, ip: req.ip });
    return { kind: 'throttled', retryAfterSeconds: throttled.retryAfterSeconds };
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
    await deps.throttle.record(rules.map((r) => r.key));
    await deps.audit({ ...anonymousActor, action: 'auth.sign_in_failed', target: counted, detail: { email: counted, reason: failure }, ip: req.ip });
    return { kind: 'failed' };
  }

  await deps.throttle.clear(pairKey(email, req.ip));
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

/** The code step: an app code (each step once) or a recovery code (each once); 5 failures per person per window. */
export async function completeTwoFactor(
  deps: IdentityDeps,
  challengeToken: string | null,
  code: string,
  req: RequestInfo,
): Promise<CodeResult> {
  const now = deps.clock.now();
  const challenge = challengeToken ? await findChallenge(deps.db, challengeToken, now) : null;
  if (!challenge) return { kind: 'expired' };
  const person = await findPersonById(deps.db, challenge.personId);
  if (!person || !person.enabled || !person.totpSecret) return { kind: 'expired' };
  const actor = { actor: person.email, actorId: person.id, actorKind: 'person' };

  const rule = codeStepRule(person.id);
  const throttled = await deps.throttle.check([rule]);
  if (throttled) {
    await deps.audit({ ...actor, action: 'auth.two_factor_throttled', target: person.email, detail: null, ip: req.ip });
    return { kind: 'throttled', retryAfterSeconds: throttled.retryAfterSeconds };
  }

  let method: 'app' | 'recovery code' | null = null;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed.replace(/\s+/g, ''))) {
    const step = matchTotp(openSecret(deps.secretKey, person.totpSecret), trimmed, now);
    if (step !== null && (await claimTotpStep(deps.db, person.id, step, now))) method = 'app';
  } else if (await consumeRecoveryCode(deps.db, person.id, trimmed)) method = 'recovery code';

  if (!method) {
    await deps.throttle.record([rule.key]);
    await deps.audit({ ...actor, action: 'auth.two_factor_failed', target: person.email, detail: null, ip: req.ip });
    return { kind: 'failed' };
  }
  await deps.throttle.clear(rule.key);
  await deleteChallenge(deps.db, challenge.id);
  const session = await createSession(deps.db, { personId: person.id, userAgent: req.userAgent, ip: req.ip, now });
  await deps.audit({ ...actor, action: 'auth.sign_in', target: person.email, detail: { twoFactor: method, sessionId: session.id }, ip: req.ip });
  if (method === 'recovery code')
    await deps.audit({
      ...actor,
      action: 'auth.recovery_code_used',
      target: person.email,
      detail: { remaining: await countRecoveryCodes(deps.db, person.id) },
      ip: req.ip,
    });
  return { kind: 'session', token: session.token, sessionId: session.id, next: challenge.nextPath };
}
