// The test clock's offset, kept in PostgreSQL so it survives a restart (contract section 6).
import type { Queryable } from '../db/db.js';
import { readSetting, writeSetting } from '../db/settings-store.js';

const KEY = 'test_clock_offset_ms';

export async function loadClockOffset(q: Queryable): Promise<number> {
  return (await readSetting<number>(q, KEY)) ?? 0;
}

export async function saveClockOffset(q: Queryable, offsetMs: number, now: number): Promise<void> {
  await writeSetting(q, KEY, offsetMs, now);
}
