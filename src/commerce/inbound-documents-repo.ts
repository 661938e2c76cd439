// The inbound document of an order (the `documentText` it was started with) as the extract step reads it.
import type { Queryable } from '../db/db.js';

/** The inbound text (`documentText` on start) of an order, or null: what `ai.extract_order` reads. */
export async function readInboundDocumentText(q: Queryable, orderId: string): Promise<string | null> {
  const { rows } = await q.query<{ body: Buffer }>(
    "SELECT body FROM order_documents WHERE order_id = $1 AND kind = 'inbound' ORDER BY created_at, id LIMIT 1",
    [orderId],
  );
  return rows[0] ? rows[0].body.toString('utf8') : null;
}
