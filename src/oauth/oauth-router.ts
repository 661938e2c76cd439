// The authorization server's HTTP surface: metadata documents, the provider's endpoints, the consent pages, Disconnect.
import { addressGroup } from '../platform/address-group.js';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { IdentityDeps } from '../auth/identity-deps.js';
import type { Authenticator } from '../auth/authenticator.js';
import { checkSignInCode, checkSignInPassword } from '../auth/sign-in-service.js';
import { createChallenge } from '../auth/session-store.js';
import { findPersonById, type Person } from '../auth/people-store.js';
import { personRestriction } from '../auth/person-principal.js';
import { roleAtLeast, roles, type Role } from '../auth/roles.js';
import { recordConnectedApp, revokeConnectedApp, connectedAppsOf } from '../auth/connected-apps.js';
import { readCookie } from '../auth/session-cookie.js';
import { setCookie, clearCookie } from '../transport/cookie-writer.js';
import { readForm } from '../transport/read-form.js';
import { requestInfo, seeOther, send, SIGN_IN_FAILED, waitText } from '../transport/page-responses.js';
import { consentDecisionPage, consentEndedPage, consentSignInPage, consentTwoFactorPage, type ConsentSubject } from './consent-pages.js';
import { disconnectAppPage } from './disconnect-app-page.js';
import { CONSENT_PATH, OAUTH_ROUTES } from './oauth-provider.js';
import { APP_KINDS, kindOfResource, protectedResourceMetadata } from './oauth-resources.js';
import type { OauthServer } from './oauth-server.js';
import type { FailureThrottle } from '../auth/failure-throttle.js';
import { redirectTarget } from './client-registration-policy.js';
import { cspNonce, htmlContentSecurityPolicy } from '../transport/security-headers.js';

/** The pending two-factor step of a consent, a challenge token like the dashboard's, kept to the consent pages. */
const CONSENT_CHALLENGE_COOKIE = 'oauth_2fa';
const CHALLENGE_SECONDS = 10 * 60;

const WORKSPACE_PASSWORD_REFUSED = 'The workspace password cannot connect apps: sign in with your own account.';

export interface OauthRouterOptions {
  server: OauthServer;
  deps: IdentityDeps;
  auth: Authenticator;
  /** Secure cookies (the service's address is https). */
  secure: () => boolean;
  /** Counts registrations per address in a one-minute window (contract 12: at most 10). */
  registrations: FailureThrottle;
}

/** Registrations one address may make per window of the registration throttle. */
export const REGISTRATIONS_PER_ADDRESS = 10;

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export function oauthRouter(o: OauthRouterOptions): Router {
  const { server, deps } = o;
  const router = new Router();

  // RFC 9728: one metadata document per protected resource.
  for (const kind of APP_KINDS)
    router.get(`/.well-known/oauth-protected-resource/${kind}`, (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = protectedResourceMetadata(server.issuer(), kind);
    });

  // The provider's own endpoints and discovery documents (RFC 8414 and OpenID discovery name the same server).
  const providerPaths = [
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
    ...Object.values(OAUTH_ROUTES),
    ...Object.values(OAUTH_ROUTES).map((p) => `${p}/*rest`),
  ];
  const toProvider = async (ctx: Context) => {
    const provider = await server.get();
    // Every answer of the provider carries the service's CSP (its own pages set their own; this one is there
    // before the provider writes, so a page it renders itself is covered too).
    ctx.set('Content-Security-Policy', htmlContentSecurityPolicy(cspNonce(ctx)));
    const registering = ctx.method === 'POST' && ctx.path === OAUTH_ROUTES.registration;
    // A registration is counted before the provider stores anything; one that stored nothing is given back.
    const reservation = registering ? await o.registrations.reserve([{ key: `oauth.register:${addressGroup(ctx.ip)}`, limit: REGISTRATIONS_PER_ADDRESS }]) : null;
    if (reservation?.kind === 'throttled') {
      ctx.status = 429;
      ctx.set('Retry-After', String(reservation.retryAfterSeconds));
      ctx.body = { error: 'too_many_requests', error_description: `At most ${REGISTRATIONS_PER_ADDRESS} client registrations per address per minute: try again in ${reservation.retryAfterSeconds} s.` };
      return;
    }
    ctx.respond = false;
    try {
      await provider.callback()(ctx.req, ctx.res);
    } finally {
      if (reservation && ctx.res.statusCode !== 201) await o.registrations.release(reservation);
    }
  };
  for (const path of providerPaths) router.all(path, toProvider);

  /** The interaction of this consent, or null (expired, or the browser lost its cookie) after answering the page. */
  async function interactionOf(ctx: Context, uid: string): Promise<{ provider: Provider; details: Interaction; subject: ConsentSubject } | null> {
    const provider = await server.get();
    const details = await provider.interactionDetails(ctx.req, ctx.res).catch(() => null);
    if (!details || details.uid !== uid) {
      send(ctx, 400, consentEndedPage({ nonce: cspNonce(ctx), message: 'This request to connect an app has expired or is not yours.' }));
      return null;
    }
    const client = await provider.Client.find(String(details.params.client_id));
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- oidc-provider types interaction params as objects; these are query strings.
    const resource = String(details.params.resource ?? '');
    const kind = kindOfResource(server.issuer(), resource);
    const subject: ConsentSubject = {
      nonce: cspNonce(ctx),
      uid,
      appName: client?.clientName ?? String(details.params.client_id),
      endpoint: resource,
      kind: kind === 'a2a' ? 'A2A' : 'MCP',
      // The provider checked redirect_uri against the client's registration before this interaction began.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- oidc-provider types interaction params as objects; these are query strings.
      redirect: redirectTarget(String(details.params.redirect_uri ?? '')),
    };
    return { provider, details, subject };
  }

  /** Finishes the login prompt for `person`: back to the provider, which asks for consent next. */
  async function finishLogin(ctx: Context, provider: Provider, person: Person, twoFactor: string | null, subject: ConsentSubject) {
    await deps.audit({
      actor: person.email,
      actorId: person.id,
      actorKind: 'person',
      action: 'auth.sign_in',
      target: person.email,
      detail: { twoFactor, app: subject.appName, endpoint: subject.endpoint },
      ip: ctx.ip,
    });
    seeOther(ctx, await provider.interactionResult(ctx.req, ctx.res, { login: { accountId: person.id } }, { mergeWithLastSubmission: false }));
  }

  /** A person who may connect apps: restrictions bar it like the rest of the service. */
  async function refusalFor(person: Person): Promise<string | null> {
    const restricted = await personRestriction(person, deps.policy);
    if (restricted === 'temporary_password') return 'Choose your own password on the Account page first, then connect the app again.';
    if (restricted === 'two_factor_required') return 'Two-factor sign-in is required for your role: turn it on on the Account page, then connect the app again.';
    return null;
  }

  router.get(`${CONSENT_PATH}/:uid`, async (ctx) => {
    const found = await interactionOf(ctx, ctx.params.uid);
    if (!found) return;
    const { details, subject } = found;
    if (details.prompt.name === 'login') return send(ctx, 200, consentSignInPage(subject));
    const person = details.session?.accountId ? await findPersonById(deps.db, details.session.accountId) : null;
    if (!person || !person.enabled) return send(ctx, 200, consentSignInPage(subject));
    send(ctx, 200, decisionPage(subject, person));
  });

  router.post(`${CONSENT_PATH}/:uid/login`, async (ctx) => {
    const found = await interactionOf(ctx, ctx.params.uid);
    if (!found) return;
    const { provider, subject } = found;
    const form = await readForm(ctx);
    const email = form('email').trim();
    if (email === '') return send(ctx, 400, consentSignInPage({ ...subject, error: WORKSPACE_PASSWORD_REFUSED }));
    const checked = await checkSignInPassword(deps, { email, password: form('password') }, requestInfo(ctx));
    if (checked.kind === 'throttled') {
      ctx.set('Retry-After', String(checked.retryAfterSeconds));
      return send(ctx, 429, consentSignInPage({ ...subject, email, error: waitText(checked.retryAfterSeconds) }));
    }
    if (checked.kind === 'workspace') return send(ctx, 400, consentSignInPage({ ...subject, error: WORKSPACE_PASSWORD_REFUSED }));
    if (checked.kind === 'failed') return send(ctx, 401, consentSignInPage({ ...subject, email, error: SIGN_IN_FAILED }));
    const person = checked.person;
    if (person.totpEnabledAt !== null) {
      const challenge = await createChallenge(deps.db, { personId: person.id, nextPath: null, now: deps.clock.now() });
      setCookie(ctx, CONSENT_CHALLENGE_COOKIE, challenge.token, o.secure(), CHALLENGE_SECONDS);
      return send(ctx, 200, consentTwoFactorPage(subject));
    }
    const refusal = await refusalFor(person);
    if (refusal) return send(ctx, 403, consentSignInPage({ ...subject, email, error: refusal }));
    await finishLogin(ctx, provider, person, null, subject);
  });

  router.post(`${CONSENT_PATH}/:uid/two-factor`, async (ctx) => {
    const found = await interactionOf(ctx, ctx.params.uid);
    if (!found) return;
    const { provider, subject } = found;
    const form = await readForm(ctx);
    const checked = await checkSignInCode(deps, readCookie(ctx, CONSENT_CHALLENGE_COOKIE), form('code'), requestInfo(ctx));
    if (checked.kind === 'expired') return send(ctx, 400, consentSignInPage({ ...subject, error: 'Your sign-in expired: enter your password again.' }));
    if (checked.kind === 'throttled') {
      ctx.set('Retry-After', String(checked.retryAfterSeconds));
      return send(ctx, 429, consentTwoFactorPage({ ...subject, error: waitText(checked.retryAfterSeconds) }));
    }
    if (checked.kind === 'failed') return send(ctx, 401, consentTwoFactorPage({ ...subject, error: 'That code is not right.' }));
    clearCookie(ctx, CONSENT_CHALLENGE_COOKIE, o.secure());
    const refusal = await refusalFor(checked.person);
    if (refusal) return send(ctx, 403, consentSignInPage({ ...subject, error: refusal }));
    await finishLogin(ctx, provider, checked.person, checked.method, subject);
  });

  router.post(`${CONSENT_PATH}/:uid/confirm`, async (ctx) => {
    const found = await interactionOf(ctx, ctx.params.uid);
    if (!found) return;
    const { provider, details, subject } = found;
    const accountId = details.session?.accountId;
    const person = accountId ? await findPersonById(deps.db, accountId) : null;
    if (details.prompt.name !== 'consent' || !person || !person.enabled) return send(ctx, 200, consentSignInPage(subject));
    const form = await readForm(ctx);
    if (form('decision') === 'deny') {
      const to = await provider.interactionResult(ctx.req, ctx.res, { error: 'access_denied', error_description: 'The person declined to connect the app' }, { mergeWithLastSubmission: false });
      return seeOther(ctx, to);
    }
    if (form('decision') !== 'allow') return send(ctx, 400, decisionPage({ ...subject, error: 'Choose Allow or Deny.' }, person));
    const role = form('role') as Role;
    if (!(roles as readonly string[]).includes(role) || !roleAtLeast(person.role, role))
      return send(ctx, 400, decisionPage({ ...subject, error: `Choose a role up to your own (${person.role}).` }, person));
    const kind = kindOfResource(server.issuer(), subject.endpoint);
    if (!kind) return send(ctx, 400, consentEndedPage({ nonce: subject.nonce, message: 'The app asked for an address this service does not serve.' }));
    const clientId = String(details.params.client_id);
    const grant = new provider.Grant({ accountId: person.id, clientId });
    grant.addResourceScope(subject.endpoint, role);
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- oidc-provider types interaction params as objects; these are query strings.
    const asked = String(details.params.scope ?? '').split(' ').filter(Boolean);
    const oidcScopes = asked.filter((s) => s === 'offline_access' || s === 'openid');
    // The chosen role is granted as a scope of the server too, the form the provider checks a request's scope in.
    grant.addOIDCScope([role, ...oidcScopes].join(' '));
    const grantId = await grant.save();
    // The role the person chose is the scope of the request from here on (the app asked for a role; the person may
    // grant a lower one): the provider then issues the code and tokens with exactly that scope.
    details.params.scope = [role, ...oidcScopes].join(' ');
    await details.save(Math.max(1, (details.exp ?? 0) - Math.floor(Date.now() / 1000)));
    await recordConnectedApp(deps.db, { id: grantId, personId: person.id, clientId, appName: subject.appName, kind, resource: subject.endpoint, role, connectedAt: deps.clock.now() });
    await deps.audit({
      actor: person.email,
      actorId: person.id,
      actorKind: 'person',
      action: 'oauth.app_connected',
      target: subject.appName,
      detail: { grantId, clientId, kind, resource: subject.endpoint, role },
      ip: ctx.ip,
    });
    seeOther(ctx, await provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true }));
  });

  function decisionPage(subject: ConsentSubject, person: Person): string {
    // Only roles up to the person's own; their own is the default choice.
    const allowed = roles.filter((r) => roleAtLeast(person.role, r));
    return consentDecisionPage({ ...subject, email: person.email, roles: allowed, suggested: allowed[allowed.length - 1] });
  }

  // Disconnect: a person ends one of their apps; its tokens stop working at once.
  router.get('/account/apps/:id/disconnect', async (ctx) => {
    const principal = await o.auth.authenticate(ctx).catch(() => null);
    if (!principal || principal.kind !== 'person' || !principal.id) return seeOther(ctx, '/login');
    const app = (await connectedAppsOf(deps.db, principal.id)).find((a) => a.id === ctx.params.id);
    if (!app) return seeOther(ctx, '/account');
    send(ctx, 200, disconnectAppPage({ nonce: cspNonce(ctx), principal, app }));
  });

  router.post('/account/apps/:id/disconnect', async (ctx) => {
    const principal = await o.auth.authenticate(ctx).catch(() => null);
    if (!principal || principal.kind !== 'person' || !principal.id) return seeOther(ctx, '/login');
    const app = await revokeConnectedApp(deps.db, principal.id, ctx.params.id, deps.clock.now());
    if (app) {
      const provider = await server.get();
      await provider.AccessToken.revokeByGrantId(app.id);
      await (await provider.Grant.find(app.id))?.destroy();
      await deps.audit({
        actor: principal.actor,
        actorId: principal.id,
        actorKind: 'person',
        action: 'oauth.app_disconnected',
        target: app.appName,
        detail: { grantId: app.id, clientId: app.clientId, kind: app.kind, resource: app.resource, role: app.role },
        ip: ctx.ip,
      });
    }
    seeOther(ctx, '/account');
  });

  return router;
}
