// A pool client whose query texts are recorded, for tests that prove what a command sends and in how many round trips.
import type pg from 'pg';
import type { PoolClient } from 'pg';

/** A checked-out client whose query texts are recorded in `sent` (every call still goes to PostgreSQL). */
export async function recordingClient(pool: pg.Pool): Promise<{ client: PoolClient; sent: string[] }> {
  const client = await pool.connect();
  const sent: string[] = [];
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    const first = args[0] as string | { text: string };
    sent.push(typeof first === 'string' ? first : first.text);
    return query(...args);
  };
  return { client, sent };
}
