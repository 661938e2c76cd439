// Connected apps module: the authorization server, its consent pages, app tokens as bearers on /mcp and /a2a.
import type { ServiceModule } from './service-module.js';
import { OauthServer } from '../oauth/oauth-server.js';
import { oauthRouter } from '../oauth/oauth-router.js';
import { appTokenBearer } from '../oauth/app-token-bearer.js';
import { purgeExpiredOauthRecords, purgeUnusedOauthClients } from '../oauth/oauth-store-adapter.js';
import { FailureThrottle } from '../auth/failure-throttle.js';

/** The window of the registration throttle (contract 12: at most 10 registrations per address per minute). */
const REGISTRATION_WINDOW_MS = 60_000;

/** Expired codes, tokens and interactions, and clients unused for a day, are deleted this often (each node; the deletes are idempotent). */
const OAUTH_PURGE_INTERVAL_MS = 60 * 60_000;

export const oauthModule: ServiceModule = (ctx) => {
  const deps = ctx.identity;
  if (!deps) throw new Error('the OAuth module needs the identity module first');
  const server = new OauthServer({ db: ctx.db, secretKey: ctx.secretKey, baseUrl: ctx.baseUrl, proxy: ctx.config.env.TRUST_PROXY > 0, now: () => ctx.clock.now() });
  // After API tokens (identity module), before the workspace-password fallback: an app's token is known by lookup.
  ctx.auth.addBearer(appTokenBearer({ server, db: ctx.db, policy: deps.policy }));
  ctx.oauth = server;
  let timer: NodeJS.Timeout | null = null;
  const purge = () =>
    Promise.all([purgeExpiredOauthRecords(ctx.db), purgeUnusedOauthClients(ctx.db, ctx.clock.now())]).then(
      () => undefined,
      (err) => ctx.logger.warn({ err: (err as Error).message }, 'oauth purge failed'),
    );
  // Under the test clock the purge also runs after every move of the clock (a day later, unused clients are gone).
  ctx.testClock?.onAdvanced(purge);
  // Counted in PostgreSQL (auth_failures, whose retention purge drops old rows), so the limit holds across nodes.
  const registrations = new FailureThrottle(ctx.db, ctx.clock, REGISTRATION_WINDOW_MS);
  return {
    routers: [oauthRouter({ server, deps, auth: ctx.auth, secure: () => ctx.baseUrl().startsWith('https://'), registrations })],
    start: async () => {
      await purge();
      timer = setInterval(() => void purge(), OAUTH_PURGE_INTERVAL_MS);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
    },
  };
};
