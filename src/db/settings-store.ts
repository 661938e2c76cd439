// Key/value service settings in PostgreSQL (secret key, test clock offset, runtime settings).
import type { Queryable } from './db.js';

export async function readSetting<T>(q: Queryable, key: string): Promise<T | undefined> {
  const { rows } = await q.query<{ value: T }>('SELECT value FROM service_settings WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function writeSetting(q: Queryable, key: string, value: unknown, now: number): Promise<void> {
  await q.query(
    `INSERT INTO service_settings (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [key, JSON.stringify(value), now],
  );
}

/** Inserts the value only when the key is absent, then returns whatever is stored (first writer wins). */
export async function initSetting<T>(q: Queryable, key: string, value: T, now: number): Promise<T> {
  await q.query(
    'INSERT INTO service_settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING',
    [key, JSON.stringify(value), now],
  );
  return (await readSetting<T>(q, key)) as T;
}
