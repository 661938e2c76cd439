// The workspace password as a bearer credential (spec "Workspace password"): the break-glass operator, compared under the guess limit.
import type { BearerFallback } from './authenticator.js';
import type { BearerThrottle } from './bearer-throttle.js';
import { unauthorized } from '../domain/errors.js';
import { safeEqual } from './constant-time.js';

/**
 * Every bearer no resolver knew (not a live API token) is one guess at the workspace password:
 * counted and compared in constant time under the address's limit (security review M1), so the
 * password can be guessed no faster than 20 per address per window, in series or in parallel.
 * Decisions by it are recorded as `api`. Without a workspace password every such bearer is wrong.
 */
export function workspacePasswordBearer(password: string | null, guesses: BearerThrottle): BearerFallback {
  return async (secret, ctx) => {
    const matched = await guesses.guess(secret, ctx, () => password !== null && safeEqual(secret, password));
    if (!matched) throw unauthorized('Invalid credential');
    return { kind: 'workspace', id: null, role: 'operator', actor: 'api', via: 'bearer' };
  };
}
