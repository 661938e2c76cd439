// The team's operators as the commerce steps address them: the emails `commerce.notify` writes to for `operations`.
import type { Queryable } from '../db/db.js';

/** The emails of every enabled operator, sorted. */
export async function operatorEmails(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ email: string }>("SELECT email FROM people WHERE role = 'operator' AND enabled ORDER BY email");
  return rows.map((r) => r.email);
}
