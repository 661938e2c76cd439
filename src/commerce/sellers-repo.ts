// Sellers in PostgreSQL as the back office lists them: commission, auto-accept, active.
import type { Queryable } from '../db/db.js';

export interface SellerListRow {
  id: string;
  name: string;
  /** Commission rate, 0 to 1. */
  commission: number;
  autoAccept: boolean;
  active: boolean;
  updatedAt: number;
}

/** Every seller by id (the catalogue keeps a handful; at most `limit`). */
export async function allSellers(q: Queryable, limit = 500): Promise<SellerListRow[]> {
  const { rows } = await q.query<{ id: string; name: string; commission: string; auto_accept: boolean; active: boolean; updated_at: string }>('SELECT id, name, commission, auto_accept, active, updated_at FROM sellers ORDER BY id LIMIT $1', [limit]);
  return rows.map((r) => ({ id: r.id, name: r.name, commission: Number(r.commission), autoAccept: r.auto_accept, active: r.active, updatedAt: Number(r.updated_at) }));
}
