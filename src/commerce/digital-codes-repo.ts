// Digital goods: one code per unit of a digital line (gift cards, licences), issued by a step and revoked by its undo.
import type { Queryable } from '../db/db.js';
import { newCommerceId, newHumanCode } from '../domain/commerce-ids.js';

/** One code as issued, in clear (the caller decides what to show of it). */
export interface IssuedCode {
  lineNo: number;
  sku: string;
  code: string;
}

/** The digital lines one node of the run delivers. */
export interface CodesToIssue {
  orderId: string;
  generation: number;
  nodeId: string;
  lines: readonly { lineNo: number; sku: string; qty: number }[];
}

/** Issues one code (four groups of four) per unit of each line, in line order: one `issued` row each. */
export async function issueDigitalCodes(q: Queryable, issue: CodesToIssue, now: number): Promise<IssuedCode[]> {
  const codes: IssuedCode[] = [];
  for (const line of issue.lines)
    for (let unit = 0; unit < line.qty; unit++) {
      const code = newHumanCode(4, 4);
      await q.query(
        `INSERT INTO digital_codes (id, order_id, generation, node_id, line_no, sku, code, status, issued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'issued', $8)`,
        [newCommerceId('dc'), issue.orderId, issue.generation, issue.nodeId, line.lineNo, line.sku, code, now],
      );
      codes.push({ lineNo: line.lineNo, sku: line.sku, code });
    }
  return codes;
}

/** Revokes the codes one node of the run issued that are still valid. */
export async function revokeDigitalCodes(q: Queryable, orderId: string, generation: number, nodeId: string, now: number): Promise<void> {
  await q.query(
    `UPDATE digital_codes SET status = 'revoked', revoked_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'issued'`,
    [orderId, generation, nodeId, now],
  );
}
