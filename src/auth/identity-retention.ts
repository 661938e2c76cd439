// The daily clean-up: audit events past 180 days, stale throttle rows, dead sessions, used TOTP steps, legacy-sealed TOTP secrets.
import type { IdentityDeps } from './identity-deps.js';
import { purgeAuditEvents } from './audit-log.js';
import { purgeExpiredSessions } from './session-store.js';
import { purgeUsedSteps } from './totp-used-steps.js';
import { resealLegacyTotpSecrets } from './totp-reseal.js';

export const RETENTION_INTERVAL_MS = 86_400_000;

/**
 * Runs every purge with the cutoff from the service Clock, and re-seals TOTP secrets still in the
 * legacy form (none after the first run, unless a node of an older version wrote one); returns how
 * many audit events went.
 */
export async function runIdentityRetention(deps: IdentityDeps): Promise<number> {
  const now = deps.clock.now();
  // Without the statement timeout: the first purge after a long downtime deletes a backlog in one statement.
  const purged = await deps.db.maintenanceTx(async (c) => {
    const audited = await purgeAuditEvents(c, now);
    await deps.throttle.purge(c);
    await purgeExpiredSessions(c, now);
    await purgeUsedSteps(c, now);
    return audited;
  });
  await resealLegacyTotpSecrets(deps);
  return purged;
}
