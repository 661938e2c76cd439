// Wrong bearer guesses (contract 4): 20 wrong workspace passwords or unknown tokens from one address in 15 minutes, then 429 + Retry-After.
import type { CredentialRequest } from './credential-request.js';
import { DomainError } from '../domain/errors.js';
import { anonymousActor } from './audit-log.js';
import type { Throttled } from './failure-throttle.js';
import type { IdentityDeps } from './identity-deps.js';
import { bearerRule } from './sign-in-keys.js';
import { TOKEN_PREFIX } from './api-token-store.js';
import { OncePer } from './once-per.js';

export interface BearerThrottle {
  /**
   * One guess with a secret that no resolver knew (neither a known API token nor a known OAuth
   * access token): counted and compared atomically (the address's lock, its count, then `matches`,
   * a constant-time comparison), so a parallel burst gets exactly 20 comparisons; the rest get 429,
   * the correct workspace password included. A wrong guess is audited `api.bearer_failed`. True
   * when it matched (nothing is recorded then).
   *
   * There is no check in front of the resolvers (security review 2, M-3): a live API token or OAuth
   * access token is found by a lookup of a 256-bit secret, which nobody guesses, so it authenticates
   * whatever others guessed from its address; only the comparisons of guessable secrets are throttled.
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
  return {
    guess: async (secret, ctx, matches) => {
      const outcome = await deps.throttle.guess([bearerRule(ctx.ip)], matches);
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
