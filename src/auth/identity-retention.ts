// The daily clean-up: audit events past 180 days, stale throttle rows, dead sessions and used TOTP steps.
import type { IdentityDeps } from './identity-deps.js';
import { purgeAuditEvents } from './audit-log.js';
import { purgeExpiredSessions } from './session-store.js';
import { purgeUsedSteps } from './totp-used-steps.js';

export const RETENTION_INTERVAL_MS = 86_400_000;

/** Runs every purge with the cutoff from the service Clock; returns how many audit events went. */
export async function runIdentityRetention(deps: IdentityDeps): Promise<number> {
  const now = deps.clock.now();
  const purged = await purgeAuditEvents(deps.db, now);
  await deps.throttle.purge();
  await purgeExpiredSessions(deps.db, now);
  await purgeUsedSteps(deps.db, now);
  return purged;
}
