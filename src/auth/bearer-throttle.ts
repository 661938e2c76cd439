// Wrong bearer guesses (spec): after 20 from one address in 15 minutes, bearer requests get 429 + Retry-After.
import type { CredentialRequest } from './credential-request.js';
import type { BearerGuard } from './authenticator.js';
import { DomainError } from '../domain/errors.js';
import { anonymousActor } from './audit-log.js';
import type { Throttled } from './failure-throttle.js';
import type { IdentityDeps } from './identity-deps.js';
import { bearerRule } from './sign-in-keys.js';
import { TOKEN_PREFIX } from './api-token-store.js';
import { OncePer } from './once-per.js';
import { tokenCacheKey } from './api-token-cache.js';
import { RecentBearerFailures } from './recent-bearer-failures.js';

export interface BearerThrottle {
  /**
   * In front of every bearer, a read-only check: a throttled address gets 429 before any secret
   * is compared, so the correct workspace password cannot be confirmed by guessing on.
   *
   * An API token this node already resolved (a hit in `deps.tokenCache`, the hot path of every
   * API request) skips even this read, unless this node itself counted a wrong bearer guess from
   * the address (or saw it throttled) within the window: then it reads as any other bearer, and
   * gets 429 over the limit. Across nodes, a live cached token from an address throttled only by
   * guesses made on other nodes is still served. That is deliberate: nobody guesses a live token
   * (2^256 secrets), and the throttle exists to protect the comparisons of guessable secrets (the
   * workspace password, unknown tokens), which are all still counted and checked in PostgreSQL.
   */
  guard: BearerGuard;
  /**
   * One guess with a secret that is no known API token: counted and compared atomically (the
   * address's lock, its count, then `matches`, a constant-time comparison), so a parallel burst
   * gets exactly 20 comparisons; the rest get 429. A wrong guess is audited `api.bearer_failed`.
   * True when it matched (nothing is recorded then).
   */
  guess(secret: string, req: CredentialRequest, matches: () => boolean): Promise<boolean>;
}

export function bearerThrottle(deps: IdentityDeps): BearerThrottle {
  // `api.bearer_throttled` at most once a minute per address (per node), so a flood does not flood the log.
  const auditOnce = new OncePer(60_000);
  const refuse = async (ip: string, throttled: Throttled): Promise<never> => {
    if (auditOnce.claim(ip, deps.clock.now()))
      await deps.audit({ ...anonymousActor, action: 'api.bearer_throttled', target: null, detail: { retryAfterSeconds: throttled.retryAfterSeconds }, ip });
    throw new DomainError('throttled', 'Too many wrong credentials from this address; try again later', 'throttled', {
      retryAfterSeconds: throttled.retryAfterSeconds,
    });
  };
  // Addresses this node counted a wrong guess from (or saw throttled): their cached tokens still pay the read.
  const recent = new RecentBearerFailures(deps.throttle.windowMs);
  return {
    guard: async (ctx, secret) => {
      const now = deps.clock.now();
      if (secret.startsWith(TOKEN_PREFIX) && !recent.within(ctx.ip, now) && deps.tokenCache.get(tokenCacheKey(secret), now)) return;
      const throttled = await deps.throttle.check([bearerRule(ctx.ip)]);
      if (throttled) {
        recent.record(ctx.ip, now);
        await refuse(ctx.ip, throttled);
      }
    },
    guess: async (secret, ctx, matches) => {
      const outcome = await deps.throttle.guess([bearerRule(ctx.ip)], matches);
      if (outcome.kind !== 'matched') recent.record(ctx.ip, deps.clock.now());
      if (outcome.kind === 'throttled') return refuse(ctx.ip, outcome);
      if (outcome.kind === 'matched') return true;
      await deps.audit({
        ...anonymousActor,
        action: 'api.bearer_failed',
        target: null,
        // Never the secret itself: only what kind of credential it looked like.
        detail: { reason: secret.startsWith(TOKEN_PREFIX) ? 'unknown token' : 'wrong workspace password' },
        ip: ctx.ip,
      });
      return false;
    },
  };
}
