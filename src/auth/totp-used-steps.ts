// Each TOTP time step's code works once per person: the step is recorded atomically on first use.
import type { Queryable } from '../db/db.js';
import { TOTP_PERIOD_SECONDS } from './totp.js';

/** True for the first use of `step` by the person; false when it was used before. */
export async function claimTotpStep(q: Queryable, personId: string, step: number, now: number): Promise<boolean> {
  const { rowCount } = await q.query(
    'INSERT INTO totp_used_steps (person_id, step, used_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [personId, step, now],
  );
  return (rowCount ?? 0) > 0;
}

/** Steps older than the ±1 window can never match again; they need not be kept. */
export async function purgeUsedSteps(q: Queryable, now: number): Promise<void> {
  const oldest = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) - 2;
  await q.query('DELETE FROM totp_used_steps WHERE step < $1', [oldest]);
}
