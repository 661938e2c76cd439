// Whether anybody is in the team yet (demo mode generates a workspace password only then).
import type { Queryable } from '../db/db.js';

export async function teamIsEmpty(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ exists: boolean }>("SELECT to_regclass('public.people') IS NOT NULL AS exists");
  if (!rows[0].exists) return true;
  const count = await q.query<{ n: string }>('SELECT count(*) AS n FROM people');
  return Number(count.rows[0].n) === 0;
}
