// Moves TOTP secrets sealed the legacy way (service key, no context) to the purpose-key form, one row at a time or all at start.
import type { IdentityDeps } from './identity-deps.js';
import { openTotpSecret, sealTotpSecret, TOTP_SEAL_PREFIX } from './totp-secret-seal.js';

/** The two columns holding a sealed TOTP secret: the enabled one and the pending enrolment. */
export type TotpColumn = 'totpSecret' | 'totpPendingSecret';
const COLUMN: Record<TotpColumn, string> = { totpSecret: 'totp_secret', totpPendingSecret: 'totp_pending_secret' };

/**
 * Replaces one sealed value by its purpose-key form, only if the row still holds `sealed` (a
 * concurrent enrolment, reset or sweep wins). `updated_at` stays: nothing about the person changed.
 */
export async function resealTotpSecret(
  deps: Pick<IdentityDeps, 'db' | 'secretKey'>,
  personId: string,
  column: TotpColumn,
  sealed: string,
  plain: string,
): Promise<void> {
  const col = COLUMN[column];
  await deps.db.query(`UPDATE people SET ${col} = $3 WHERE id = $1 AND ${col} = $2`, [personId, sealed, sealTotpSecret(deps.secretKey, personId, plain)]);
}

/**
 * Re-seals every legacy value (run at start and daily with the retention), so a value sealed
 * before purpose keys existed does not stay movable between people. Values that do not open are
 * left alone and logged: they may belong to another key. Returns how many were re-sealed.
 */
export async function resealLegacyTotpSecrets(deps: Pick<IdentityDeps, 'db' | 'secretKey' | 'logger'>): Promise<number> {
  const { rows } = await deps.db.query<{ id: string; totp_secret: string | null; totp_pending_secret: string | null }>(
    `SELECT id, totp_secret, totp_pending_secret FROM people
     WHERE (totp_secret IS NOT NULL AND left(totp_secret, $1) <> $2)
        OR (totp_pending_secret IS NOT NULL AND left(totp_pending_secret, $1) <> $2)`,
    [TOTP_SEAL_PREFIX.length, TOTP_SEAL_PREFIX],
  );
  let resealed = 0;
  for (const row of rows) {
    for (const [column, sealed] of [['totpSecret', row.totp_secret], ['totpPendingSecret', row.totp_pending_secret]] as const) {
      if (sealed === null || sealed.startsWith(TOTP_SEAL_PREFIX)) continue;
      const opened = openTotpSecret(deps.secretKey, row.id, sealed);
      if (!opened) {
        deps.logger.warn({ personId: row.id, column: COLUMN[column] }, 'legacy two-factor secret does not open with the service key; left as it is');
        continue;
      }
      await resealTotpSecret(deps, row.id, column, sealed, opened.secret);
      resealed += 1;
    }
  }
  return resealed;
}
