// The authorization server (oidc-provider, contract section 12): DCR for public clients, code + PKCE S256, the resource
// indicator required and bound into opaque access tokens, rotating refresh tokens, revocation, storage in PostgreSQL.
import { randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Queryable } from '../db/db.js';
import { findPersonById } from '../auth/people-store.js';
import { roles } from '../auth/roles.js';
import { pgOauthAdapter } from './oauth-store-adapter.js';
import { APP_KINDS, kindOfResource, resourceUrl } from './oauth-resources.js';
import { enforceClientPolicy } from './client-registration-policy.js';
import { htmlContentSecurityPolicy } from '../transport/security-headers.js';
import { oauthErrorPage } from './oauth-error-page.js';

/** Where the provider's routes live (the client follows the metadata; these are the paths it names). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  end_session: '/oauth/session/end',
} as const;

/** The consent pages: GET shows the step the interaction is at; the forms post to the step's own path. */
export const CONSENT_PATH = '/oauth/consent';

export interface OauthProviderOptions {
  db: Queryable;
  /** The issuer: BASE_URL (the service's public origin). */
  issuer: string;
  signingJwk: Record<string, unknown>;
  cookieKeys: string[];
  /** TRUST_PROXY > 0: trust X-Forwarded-Proto for https detection. */
  proxy: boolean;
  /** The service's clock: when a client registered (an unused one is deleted a day later). */
  now: () => number;
}

/** Lifetimes in seconds: short codes and access tokens, refresh tokens for a month (rotated on use). */
const TTL = {
  AccessToken: 3_600,
  AuthorizationCode: 60,
  RefreshToken: 30 * 86_400,
  Interaction: 15 * 60,
  Session: 15 * 60,
  Grant: 365 * 86_400,
  ClientCredentials: 600,
} as const;

export function createOauthProvider(o: OauthProviderOptions): Provider {
  const resources = new Set(APP_KINDS.map((kind) => resourceUrl(o.issuer, kind)));
  const configuration: Configuration = {
    adapter: pgOauthAdapter(o.db, o.now),
    jwks: { keys: [o.signingJwk] },
    cookies: { keys: o.cookieKeys },
    routes: OAUTH_ROUTES,
    // The roles are the scopes (of the resources too: getResourceServerInfo); clients register with them (DCR `scope`).
    // offline_access asks for a refresh token (MCP clients add it when it is listed).
    scopes: ['openid', 'offline_access', ...roles],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    // Redirect URIs, their number, the name's length (contract 12): checked whenever a client is built (registration
    // and every load). The provider calls the validator once per listed property; client_name is one every client may have.
    extraClientMetadata: {
      properties: ['client_name'],
      validator: (_ctx, key, _value, metadata) => {
        if (key === 'client_name') enforceClientPolicy(metadata);
      },
    },
    // The provider's own error page is one of the service's pages: its frame, its CSP, nothing from another origin.
    renderError: async (ctx, out) => {
      const nonce = randomBytes(16).toString('base64');
      ctx.set('Content-Security-Policy', htmlContentSecurityPolicy(nonce));
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'html';
      ctx.body = oauthErrorPage({ nonce, error: String(out.error ?? 'server_error'), description: out.error_description ? String(out.error_description) : null });
    },
    ttl: { ...TTL },
    rotateRefreshToken: true,
    // A public client that asked for refresh tokens at registration gets one: MCP clients keep a connection for weeks.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx, id) => {
      const person = await findPersonById(o.db, id);
      return person ? { accountId: person.id, claims: async () => ({ sub: person.id }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // The resource parameter is required: a grant is for one endpoint (contract 12).
        defaultResource: () => {
          throw new errors.InvalidTarget('the resource parameter is required: BASE_URL/mcp or BASE_URL/a2a');
        },
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => {
          if (!resources.has(resource)) throw new errors.InvalidTarget(`unknown resource ${resource}: use ${[...resources].join(' or ')}`);
          return { scope: roles.join(' '), audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: TTL.AccessToken };
        },
      },
    },
    // A granted role is one scope; the consent page records it, so nothing is granted that the person did not pick.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
  };
  const provider = new Provider(o.issuer, configuration);
  provider.proxy = o.proxy;
  return provider;
}

/** The endpoint a token is for, from its audience. */
export function kindOfAudience(issuer: string, aud: string | string[] | undefined): ReturnType<typeof kindOfResource> {
  const one = Array.isArray(aud) ? aud[0] : aud;
  return one ? kindOfResource(issuer, one) : null;
}
