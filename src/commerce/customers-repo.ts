// Customer accounts as the commerce steps read them: the email a notification goes to, the credit limit a policy checks.
import type { Queryable } from '../db/db.js';

/** The customer account's email, or null (no such customer). */
export async function customerEmail(q: Queryable, customerId: string): Promise<string | null> {
  const { rows } = await q.query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [customerId]);
  return rows[0]?.email ?? null;
}

/** The customer's credit limit in USD cents (`limitMinor` null: no limit set), or null when there is no such customer. */
export async function customerCreditLimit(q: Queryable, customerId: string): Promise<{ limitMinor: number | null } | null> {
  const { rows } = await q.query<{ credit_limit_minor: string | null }>('SELECT credit_limit_minor FROM customers WHERE id = $1', [customerId]);
  if (rows.length === 0) return null;
  return { limitMinor: rows[0].credit_limit_minor === null ? null : Number(rows[0].credit_limit_minor) };
}
