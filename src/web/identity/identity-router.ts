// Routes of the identity pages: sign-in, two-factor, sign-out, Account, Team, Audit (server-rendered HTML forms).
import { requestInfo, seeOther, send, SIGN_IN_FAILED, waitText } from '../../transport/page-responses.js';
import { connectedAppsOf } from '../../auth/connected-apps.js';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { DomainError, RoleRequiredError, ValidationError } from '../../domain/errors.js';
import type { Authenticator } from '../../auth/authenticator.js';
import type { Principal } from '../../auth/principal.js';
import type { IdentityDeps } from '../../auth/identity-deps.js';
import { auditActorOf, auditTypes, type AuditType } from '../../auth/audit-log.js';
import { completeTwoFactor, signIn } from '../../auth/sign-in-service.js';
import {
  accountPerson,
  changePassword,
  disableTwoFactor,
  enableTwoFactor,
  endOtherSessions,
  endOwnSession,
  listOwnSessions,
  newRecoveryCodes,
  pendingEnrolment,
  pendingOrNewEnrolment,
  startEnrolment,
} from '../../auth/account-service.js';
import { countRecoveryCodes } from '../../auth/recovery-codes.js';
import { deleteSession, SESSION_ABSOLUTE_MS, CHALLENGE_MS } from '../../auth/session-store.js';
import { readCookie, type CookieNames } from '../../auth/session-cookie.js';
import { clearCookie, setCookie } from '../../transport/cookie-writer.js';
import { HTTP_STATUS } from '../../transport/http-errors.js';
import { identityCss } from './identity-css.js';
import { loginPage, twoFactorPage } from './login-pages.js';
import { accountPage, enrolPage, type AccountView } from './account-page.js';
import { teamPage, type TeamView } from './team-page.js';
import { auditPage } from './audit-page.js';
import { html, page } from '../../transport/html.js';
import { readForm, safeNext } from '../../transport/read-form.js';
import type { OperationRegistry } from '../../application/operation-registry.js';
import type { OperationInput, OperationName } from '../../application/operation-types.js';
import { forbiddenPage, pagePrincipal as signedIn } from '../page-principal.js';
import { cspNonce } from '../../transport/security-headers.js';

export interface IdentityRouterOptions {
  deps: IdentityDeps;
  auth: Authenticator;
  /** The team, token, settings and audit actions are the registry's identity operations: they decide roles and inputs. */
  operations: OperationRegistry;
  names: () => CookieNames;
  /** Issuer shown in authenticator apps. */
  issuer: string;
}

const SIGNED_IN_HOME = '/';
export function identityRouter(o: IdentityRouterOptions): Router {
  const { deps, auth } = o;
  const router = new Router();

  /** The signed-in person of a page request, or null after answering (sign-in or Account redirect); roles are the operations'. */
  const pagePrincipal = (ctx: Context, allowRestricted: boolean) => signedIn(auth, ctx, null, { allowRestricted, postNext: '/account' });

  /**
   * Runs a page action; a DomainError becomes the page re-rendered with its message and status, except a role
   * below the operation's (the 403 page) and, with `invalid`, an input the operation's schema refused (the form's message).
   */
  async function attempt<T>(
    ctx: Context,
    principal: Principal,
    action: () => Promise<T>,
    onError: (message: string, status: number) => Promise<void>,
    invalid?: string,
  ): Promise<T | undefined> {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err instanceof RoleRequiredError) {
        forbiddenPage(ctx, principal, err.role);
        return undefined;
      }
      if (invalid && err instanceof ValidationError) {
        await onError(invalid, HTTP_STATUS[err.kind]);
        return undefined;
      }
      if (typeof err.details?.retryAfterSeconds === 'number') ctx.set('Retry-After', String(err.details.retryAfterSeconds));
      await onError(err.kind === 'throttled' ? waitText(Number(err.details?.retryAfterSeconds ?? 60)) : err.message, HTTP_STATUS[err.kind]);
      return undefined;
    }
  }

  /** Runs the registry operation `name` as the page's person, with the request's address. */
  const call = <N extends OperationName>(ctx: Context, principal: Principal, name: N, input: OperationInput<N>) => o.operations.call(name, principal, input, { ip: ctx.ip ?? null });
  /** The same with a form's values as typed: the operation's schema is their only check. */
  const callRaw = <N extends OperationName>(ctx: Context, principal: Principal, name: N, input: unknown) => o.operations.callRaw(name, principal, input, { ip: ctx.ip ?? null });

  function startSession(ctx: Context, token: string, next: string | null): void {
    const names = o.names();
    setCookie(ctx, names.session, token, names.secure, SESSION_ABSOLUTE_MS / 1000);
    clearCookie(ctx, names.challenge, names.secure);
    seeOther(ctx, safeNext(next) ?? SIGNED_IN_HOME);
  }

  router.get('/assets/identity.css', (ctx) => {
    ctx.type = 'text/css';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = identityCss;
  });

  // ---- sign-in ----
  router.get('/login', async (ctx) => {
    send(ctx, 200, loginPage({ nonce: cspNonce(ctx), next: safeNext(String(ctx.query.next ?? '')) }));
  });

  router.post('/login', async (ctx) => {
    const form = await readForm(ctx);
    const next = safeNext(form('next'));
    const email = form('email');
    const result = await signIn(deps, { email, password: form('password'), next }, requestInfo(ctx));
    const names = o.names();
    switch (result.kind) {
      case 'throttled':
        ctx.set('Retry-After', String(result.retryAfterSeconds));
        return send(ctx, 429, loginPage({ nonce: cspNonce(ctx), next, email, error: waitText(result.retryAfterSeconds) }));
      case 'failed':
        return send(ctx, 401, loginPage({ nonce: cspNonce(ctx), next, email, error: SIGN_IN_FAILED }));
      case 'two_factor':
        setCookie(ctx, names.challenge, result.challengeToken, names.secure, CHALLENGE_MS / 1000);
        return seeOther(ctx, '/login/two-factor');
      case 'session':
        return startSession(ctx, result.token, result.next);
    }
  });

  router.get('/login/two-factor', async (ctx) => {
    if (!readCookie(ctx, o.names().challenge)) return seeOther(ctx, '/login');
    send(ctx, 200, twoFactorPage({ nonce: cspNonce(ctx) }));
  });

  router.post('/login/two-factor', async (ctx) => {
    const form = await readForm(ctx);
    const names = o.names();
    const result = await completeTwoFactor(deps, readCookie(ctx, names.challenge), form('code'), requestInfo(ctx));
    switch (result.kind) {
      case 'expired':
        clearCookie(ctx, names.challenge, names.secure);
        return send(ctx, 401, loginPage({ nonce: cspNonce(ctx), next: null, error: 'Your sign-in expired. Enter your email and password again.' }));
      case 'throttled':
        ctx.set('Retry-After', String(result.retryAfterSeconds));
        return send(ctx, 429, twoFactorPage({ nonce: cspNonce(ctx), error: waitText(result.retryAfterSeconds) }));
      case 'failed':
        return send(ctx, 401, twoFactorPage({ nonce: cspNonce(ctx), error: 'That code is not correct.' }));
      case 'session':
        return startSession(ctx, result.token, result.next);
    }
  });

  router.post('/logout', async (ctx) => {
    const names = o.names();
    let principal: Principal | null;
    try {
      principal = await auth.authenticate(ctx);
    } catch {
      principal = null;
    }
    if (principal?.via === 'session' && principal.sessionId) {
      await deleteSession(deps.db, principal.sessionId);
      await deps.audit({ ...auditActorOf(principal), action: 'auth.sign_out', target: principal.email ?? 'workspace', detail: { sessionId: principal.sessionId }, ip: ctx.ip });
    }
    clearCookie(ctx, names.session, names.secure);
    seeOther(ctx, '/login');
  });

  // ---- Account ----
  async function accountView(ctx: Context, principal: Principal, extra: Partial<AccountView> = {}): Promise<AccountView> {
    const person = principal.kind === 'person' ? await accountPerson(deps, principal) : null;
    return {
      nonce: cspNonce(ctx),
      principal,
      person,
      recoveryRemaining: person ? await countRecoveryCodes(deps.db, person.id) : 0,
      twoFactorRequired: person ? await deps.policy.covers(person.role) : false,
      sessions: await listOwnSessions(deps, principal),
      tokens: await visibleTokens(ctx, principal),
      connectedApps: person ? await connectedAppsOf(deps.db, person.id) : [],
      ...extra,
    };
  }

  /** The API tokens section: shown to whoever `listApiTokens` answers (its role, not a restricted person), else none. */
  async function visibleTokens(ctx: Context, principal: Principal) {
    try {
      return (await call(ctx, principal, 'listApiTokens', {})).tokens;
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'forbidden') return null;
      throw err;
    }
  }

  async function renderAccount(ctx: Context, principal: Principal, status: number, extra: Partial<AccountView> = {}) {
    // Re-resolve: a password change lifts the temporary restriction within this response.
    const fresh = (await reresolve(ctx)) ?? principal;
    send(ctx, status, accountPage(await accountView(ctx, fresh, extra)));
  }

  async function reresolve(ctx: Context): Promise<Principal | null> {
    auth.forget(ctx);
    try {
      return await auth.authenticate(ctx);
    } catch {
      return null;
    }
  }

  router.get('/account', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (principal) await renderAccount(ctx, principal, 200);
  });

  router.post('/account/password', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const form = await readForm(ctx);
    const done = await attempt(
      ctx,
      principal,
      async () => changePassword(deps, principal, { current: form('current'), password: form('password') }, requestInfo(ctx)).then(() => true),
      (message, status) => renderAccount(ctx, principal, status, { error: message }),
    );
    if (done) await renderAccount(ctx, principal, 200, { ok: 'Your password was changed. Other sessions were signed out.' });
  });

  // A page load shows the pending secret, creating one only when none is pending (the contract's page
  // shows a secret); it never replaces one (security review L7), so a cross-site navigation carrying
  // the Lax cookie cannot reset an enrolment in progress.
  router.get('/account/two-factor', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const enrolment = await attempt(
ctx,
principal, () => pendingOrNewEnrolment(deps, principal, o.issuer), (message, status) => renderAccount(ctx, principal, status, { error: message }));
    if (enrolment) send(ctx, 200, enrolPage({ nonce: cspNonce(ctx), principal, ...enrolment }));
  });

  // Replacing the pending secret ("Start over with a new key") is a POST, under the browser protections; then back to the page.
  router.post('/account/two-factor/start', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const started = await attempt(
ctx,
principal, () => startEnrolment(deps, principal).then(() => true), (message, status) => renderAccount(ctx, principal, status, { error: message }));
    if (started) seeOther(ctx, '/account/two-factor');
  });

  router.post('/account/two-factor', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const form = await readForm(ctx);
    const codes = await attempt(
      ctx,
      principal,
      () => enableTwoFactor(deps, principal, { password: form('password'), code: form('code') }, requestInfo(ctx)),
      async (message, status) => {
        // Show the same pending secret again so the person can retry with the next code.
        const pending = principal.kind === 'person' ? await pendingEnrolment(deps, principal, o.issuer).catch(() => null) : null;
        if (pending) send(ctx, status, enrolPage({ nonce: cspNonce(ctx), principal, ...pending, error: message }));
        else await renderAccount(ctx, principal, status, { error: message });
      },
    );
    if (codes) await renderAccount(ctx, principal, 200, { ok: 'Two-factor sign-in is on.', recoveryCodes: codes });
  });

  router.post('/account/two-factor/disable', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const form = await readForm(ctx);
    const done = await attempt(
      ctx,
      principal,
      () => disableTwoFactor(deps, principal, form('password'), requestInfo(ctx)).then(() => true),
      (message, status) => renderAccount(ctx, principal, status, { error: message }),
    );
    if (done) await renderAccount(ctx, principal, 200, { ok: 'Two-factor sign-in is off.' });
  });

  router.post('/account/recovery-codes', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const form = await readForm(ctx);
    const codes = await attempt(
      ctx,
      principal,
      () => newRecoveryCodes(deps, principal, form('password'), requestInfo(ctx)),
      (message, status) => renderAccount(ctx, principal, status, { error: message }),
    );
    if (codes) await renderAccount(ctx, principal, 200, { ok: 'New recovery codes replace the old ones.', recoveryCodes: codes });
  });

  router.post('/account/sessions/end-others', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const ended = await attempt(
ctx,
principal, () => endOtherSessions(deps, principal, requestInfo(ctx)), (m, s) => renderAccount(ctx, principal, s, { error: m }));
    if (ended !== undefined) await renderAccount(ctx, principal, 200, { ok: `${ended} other session${ended === 1 ? '' : 's'} ended.` });
  });

  router.post('/account/sessions/:id/end', async (ctx) => {
    const principal = await pagePrincipal(ctx, true);
    if (!principal) return;
    const wasCurrent = await attempt(
ctx,
principal, () => endOwnSession(deps, principal, ctx.params.id, requestInfo(ctx)), (m, s) => renderAccount(ctx, principal, s, { error: m }));
    if (wasCurrent === true) {
      const names = o.names();
      clearCookie(ctx, names.session, names.secure);
      seeOther(ctx, '/login');
    } else if (wasCurrent === false) await renderAccount(ctx, principal, 200, { ok: 'The session was ended.' });
  });

  router.post('/account/api-tokens', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const form = await readForm(ctx);
    const input = { name: form('name'), role: form('role'), expiresIn: form('expiresIn') || undefined };
    const created = await attempt(
      ctx,
      principal,
      () => callRaw(ctx, principal, 'createApiToken', input),
      (m, s) => renderAccount(ctx, principal, s, { error: m }),
      'Give a name (1 to 100 characters), a role and an expiry.',
    );
    if (created) await renderAccount(ctx, principal, 201, { ok: `Token ${created.token.name} created.`, newTokenSecret: created.secret });
  });

  router.post('/account/api-tokens/:id/revoke', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const done = await attempt(
ctx,
principal, () => call(ctx, principal, 'revokeApiToken', { id: ctx.params.id }), (m, s) => renderAccount(ctx, principal, s, { error: m }));
    if (done) await renderAccount(ctx, principal, 200, { ok: 'The token was revoked.' });
  });

  // ---- Team ----
  async function renderTeam(ctx: Context, principal: Principal, status: number, extra: Partial<TeamView> = {}) {
    const [{ people }, { twoFactorRequirement }] = await Promise.all([call(ctx, principal, 'listTeam', {}), call(ctx, principal, 'getSettings', {})]);
    send(ctx, status, teamPage({ nonce: cspNonce(ctx), principal, people, requirement: twoFactorRequirement, ...extra }));
  }

  router.get('/team', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (principal) await attempt(ctx, principal, () => renderTeam(ctx, principal, 200), (m, s) => renderTeam(ctx, principal, s, { error: m }));
  });

  router.post('/team/people', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const form = await readForm(ctx);
    const input = { email: form('email').trim(), name: form('name').slice(0, 200) || null, role: form('role') };
    const added = await attempt(ctx, principal, () => callRaw(ctx, principal, 'addPerson', input), (m, s) => renderTeam(ctx, principal, s, { error: m }), 'Give a valid email and a role.');
    if (added) await renderTeam(ctx, principal, 201, { ok: `${added.person.email} was added.`, temporaryPassword: { email: added.person.email, password: added.temporaryPassword } });
  });

  router.post('/team/people/:id/role', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const role = (await readForm(ctx))('role');
    const changed = await attempt(ctx, principal, () => callRaw(ctx, principal, 'updatePerson', { id: ctx.params.id, role }), (m, s) => renderTeam(ctx, principal, s, { error: m }), 'Choose a role.');
    if (changed) await renderTeam(ctx, principal, 200, { ok: `${changed.person.email} is now ${changed.person.role}.` });
  });

  router.post('/team/people/:id/enabled', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const enabled = (await readForm(ctx))('enabled') === 'true';
    const changed = await attempt(ctx, principal, () => call(ctx, principal, 'updatePerson', { id: ctx.params.id, enabled }), (m, s) => renderTeam(ctx, principal, s, { error: m }));
    if (changed) await renderTeam(ctx, principal, 200, { ok: `${changed.person.email} is ${changed.person.enabled ? 'enabled' : 'disabled'}.` });
  });

  router.post('/team/people/:id/reset-password', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const id = ctx.params.id;
    const reset = await attempt(ctx, principal, () => call(ctx, principal, 'resetPassword', { id }), (m, s) => renderTeam(ctx, principal, s, { error: m }));
    if (reset) {
      const email = (await call(ctx, principal, 'listTeam', {})).people.find((p) => p.id === id)?.email ?? id;
      await renderTeam(ctx, principal, 200, { ok: `${email} was signed out everywhere.`, temporaryPassword: { email, password: reset.temporaryPassword } });
    }
  });

  router.post('/team/people/:id/reset-two-factor', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const done = await attempt(
ctx,
principal, () => call(ctx, principal, 'resetTwoFactor', { id: ctx.params.id }), (m, s) => renderTeam(ctx, principal, s, { error: m }));
    if (done) await renderTeam(ctx, principal, 200, { ok: 'Two-factor was reset.' });
  });

  router.post('/team/two-factor-requirement', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    const twoFactorRequirement = (await readForm(ctx))('twoFactorRequirement');
    const saved = await attempt(
      ctx,
      principal,
      () => callRaw(ctx, principal, 'updateSettings', { twoFactorRequirement }),
      (m, s) => renderTeam(ctx, principal, s, { error: m }),
      'Choose who must use two-factor.',
    );
    if (saved) await renderTeam(ctx, principal, 200, { ok: 'The two-factor requirement was saved.' });
  });

  // ---- Audit ----
  router.get('/audit', async (ctx) => {
    const principal = await pagePrincipal(ctx, false);
    if (!principal) return;
    // Lenient filters: an unknown type or a bad `before` shows everything rather than an error.
    const type = auditTypes.includes(String(ctx.query.type) as AuditType) ? (String(ctx.query.type) as AuditType) : undefined;
    const beforeRaw = Number(ctx.query.before);
    const before = Number.isInteger(beforeRaw) && beforeRaw > 0 ? beforeRaw : undefined;
    const limit = 100;
    const listed = await attempt(ctx, principal, () => call(ctx, principal, 'listAuditEvents', { type, before, limit }), async (m, s) => {
      send(ctx, s, page({ title: 'Audit', nonce: cspNonce(ctx), principal, body: html`<p role="alert">${m}</p>` }));
    });
    if (listed) send(ctx, 200, auditPage({ nonce: cspNonce(ctx), principal, events: listed.events, type: type ?? null, limit }));
  });

  return router;
}
