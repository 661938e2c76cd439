// SECRET_KEY: from the environment, else generated once and shared by every node through PostgreSQL.
import { randomBytes, createHash } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { initSetting } from '../db/settings-store.js';

/** Returns 32 key bytes: SHA-256 of SECRET_KEY when set, else the stored random key. */
export async function resolveSecretKey(q: Queryable, fromEnv: string | undefined, now: number): Promise<Buffer> {
  if (fromEnv) return createHash('sha256').update(fromEnv, 'utf8').digest();
  const stored = await initSetting(q, 'secret_key', randomBytes(32).toString('base64'), now);
  return Buffer.from(stored, 'base64');
}
