// Wrong bearer guesses (spec): after 20 from one address in 15 minutes, bearer requests get 429 + Retry-After.
import type { BearerFailureHook, BearerGuard } from './authenticator.js';
import { DomainError } from '../domain/errors.js';
import { anonymousActor } from './audit-log.js';
import type { IdentityDeps } from './identity-deps.js';
import { bearerRule } from './sign-in-keys.js';
import { TOKEN_PREFIX } from './api-token-store.js';
import { OncePer } from './once-per.js';

/**
 * Every bearer from a throttled address is refused before any secret is compared, so the
 * correct workspace password cannot be confirmed by guessing on. `api.bearer_throttled`
 * is audited at most once a minute per address so a flood does not flood the log.
 */
export function bearerThrottleGuard(deps: IdentityDeps): BearerGuard {
  const auditOnce = new OncePer(60_000);
  return async (ctx) => {
    const throttled = await deps.throttle.check([bearerRule(ctx.ip)]);
    if (!throttled) return;
    if (auditOnce.claim(ctx.ip, deps.clock.now()))
      await deps.audit({ ...anonymousActor, action: 'api.bearer_throttled', target: null, detail: { retryAfterSeconds: throttled.retryAfterSeconds }, ip: ctx.ip });
    throw new DomainError('throttled', 'Too many wrong credentials from this address; try again later', 429, {
      retryAfterSeconds: throttled.retryAfterSeconds,
    });
  };
}

/** A bearer that matched nothing: one wrong guess for the address, audited `api.bearer_failed`. */
export function bearerFailureRecorder(deps: IdentityDeps): BearerFailureHook {
  return async (secret, ctx) => {
    await deps.throttle.record([bearerRule(ctx.ip).key]);
    await deps.audit({
      ...anonymousActor,
      action: 'api.bearer_failed',
      target: null,
      // Never the secret itself: only what kind of credential it looked like.
      detail: { reason: secret.startsWith(TOKEN_PREFIX) ? 'unknown token' : 'wrong workspace password' },
      ip: ctx.ip,
    });
  };
}
