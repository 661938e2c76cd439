// One command's pooled connection: it watches for the server going away, rolls back a transaction a throw left open, and discards a connection it cannot trust.
import type { Pool, PoolClient } from 'pg';
import { StalePreparedPlan } from './stale-prepared-plan.js';

/**
 * Runs `fn` on a connection of `pool`. `fn` opens its transaction and ends it (COMMIT or ROLLBACK), calling `ended`
 * once it has; a throw before that rolls the transaction back. A checked-out client whose server goes away emits
 * 'error' (the next query fails instead), and a connection whose prepared statements predate a schema change
 * (StalePreparedPlan) is dropped on release rather than reused.
 */
export async function onCommandConnection<T>(pool: Pool, fn: (client: PoolClient, ended: () => void) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | null = null;
  const onError = (err: Error) => void (broken = err);
  client.on('error', onError);
  let done = false;
  try {
    return await fn(client, () => void (done = true));
  } catch (err) {
    if (!done) await client.query('ROLLBACK').catch(() => undefined);
    if (err instanceof StalePreparedPlan) broken ??= err;
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken ?? undefined);
  }
}
