// Identity and access module: people, sessions, API tokens, two-factor, throttling, audit, browser protections.
import { randomBytes } from 'node:crypto';
import type { ServiceModule } from './service-module.js';
import { ownOriginsOf } from './own-origins.js';
import { createIdentityDeps } from '../auth/identity-deps.js';
import { apiTokenBearer } from '../auth/api-token-bearer.js';
import { bearerThrottle } from '../auth/bearer-throttle.js';
import { workspacePasswordBearer } from '../auth/workspace-password-bearer.js';
import { sessionResolver } from '../auth/session-resolver.js';
import { cookieNames, readCookie } from '../auth/session-cookie.js';
import { runIdentityRetention, RETENTION_INTERVAL_MS } from '../auth/identity-retention.js';
import { bridgeIdentityChangesToRedis } from '../auth/identity-changes-redis.js';
import { initSetting } from '../db/settings-store.js';
import { browserProtections } from '../transport/browser-protections.js';
import { identityOperations } from '../application/operations/identity-operations.js';
import { identityRouter } from '../web/identity/identity-router.js';
import { homeFallback, restrictedPageRedirect } from '../web/identity/page-guards.js';

/** Sign-in forms are guarded against cross-site posts even before any cookie exists (login CSRF). */
const GUARDED_WITHOUT_COOKIE = new Set(['/login', '/login/two-factor']);

export const identityModule: ServiceModule = (ctx) => {
  const deps = createIdentityDeps({
    db: ctx.db,
    clock: ctx.clock,
    logger: ctx.logger,
    secretKey: ctx.secretKey,
    iterations: ctx.config.env.PBKDF2_ITERATIONS,
    workspacePassword: ctx.workspacePassword.value,
  });
  ctx.identity = deps;
  const names = () => cookieNames(ctx.baseUrl());

  // Every bearer: a known API token (or, from the OAuth module, a known access token) without any address check,
  // else one counted guess at the workspace password (contract 4: only guessable secrets are throttled).
  const guesses = bearerThrottle(deps);
  ctx.auth
    .addBearer(apiTokenBearer(deps))
    .setBearerFallback(workspacePasswordBearer(deps.workspacePassword, guesses))
    .setSessions(sessionResolver(deps, names));
  ctx.operations.add(...identityOperations(deps));

  const ownOrigins = ownOriginsOf(ctx);

  let timer: NodeJS.Timeout | null = null;
  let unbridge: (() => Promise<void>) | null = null;
  const retention = () =>
    runIdentityRetention(deps).catch((err) => ctx.logger.warn({ err: (err as Error).message }, 'identity retention failed'));

  return {
    before: [
      browserProtections({
        ownOrigins,
        carriesCookie: (c) => {
          const n = names();
          return readCookie(c, n.session) !== null || readCookie(c, n.challenge) !== null;
        },
        // The consent pages of connected apps too: same-origin rules as dashboard sign-in.
        alwaysGuarded: (path) => GUARDED_WITHOUT_COOKIE.has(path) || path.startsWith('/oauth/consent/'),
      }),
      restrictedPageRedirect(ctx.auth),
      homeFallback(ctx.auth),
    ],
    routers: [identityRouter({ deps, auth: ctx.auth, operations: ctx.operations, names, issuer: ctx.config.env.SERVICE_NAME })],
    start: async () => {
      if (!ctx.baseUrl().startsWith('https://') && !/^http:\/\/(127\.|localhost|\[::1\])/.test(ctx.baseUrl()))
        ctx.logger.warn({ baseUrl: ctx.baseUrl() }, 'BASE_URL is plain http on a non-local address: session cookies are not Secure');
      // Identity changes reach the other nodes' token caches over Redis, under the per-database prefix the engine keys Redis with.
      if (ctx.redis) {
        const prefix = await initSetting(ctx.db, 'redis_key_prefix', `oo:${randomBytes(6).toString('hex')}:`, ctx.clock.now());
        unbridge = await bridgeIdentityChangesToRedis(deps.changes, ctx.redis, prefix);
      }
      await retention();
      timer = setInterval(() => void retention(), RETENTION_INTERVAL_MS);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      await unbridge?.();
    },
  };
};
