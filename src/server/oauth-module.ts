// Connected apps module: the authorization server, its consent pages, app tokens as bearers on /mcp and /a2a.
import type { ServiceModule } from './service-module.js';
import { OauthServer } from '../oauth/oauth-server.js';
import { oauthRouter } from '../oauth/oauth-router.js';
import { appTokenBearer } from '../oauth/app-token-bearer.js';
import { purgeExpiredOauthRecords } from '../oauth/oauth-store-adapter.js';

/** Expired codes, tokens and interactions are deleted this often (each node; the deletes are idempotent). */
const OAUTH_PURGE_INTERVAL_MS = 60 * 60_000;

export const oauthModule: ServiceModule = (ctx) => {
  const deps = ctx.identity;
  if (!deps) throw new Error('the OAuth module needs the identity module first');
  const server = new OauthServer({ db: ctx.db, secretKey: ctx.secretKey, baseUrl: ctx.baseUrl, proxy: ctx.config.env.TRUST_PROXY > 0, now: () => ctx.clock.now() });
  // After API tokens (identity module), before the workspace-password fallback: an app's token is known by lookup.
  ctx.auth.addBearer(appTokenBearer({ server, db: ctx.db, policy: deps.policy }));
  ctx.oauth = server;
  let timer: NodeJS.Timeout | null = null;
  const purge = () => purgeExpiredOauthRecords(ctx.db).catch((err) => ctx.logger.warn({ err: (err as Error).message }, 'oauth purge failed'));
  return {
    routers: [oauthRouter({ server, deps, auth: ctx.auth, secure: () => ctx.baseUrl().startsWith('https://') })],
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
