// The workspace password as a bearer credential: the break-glass operator (spec "Workspace password").
import type { BearerResolver } from './authenticator.js';
import { safeEqual } from './constant-time.js';

/** Matches the workspace password in constant time; decisions by it are recorded as `api`. */
export function workspacePasswordBearer(password: string | null): BearerResolver {
  return async (secret) => {
    if (!password || !safeEqual(secret, password)) return null;
    return { kind: 'workspace', id: null, role: 'operator', actor: 'api', via: 'bearer' };
  };
}
