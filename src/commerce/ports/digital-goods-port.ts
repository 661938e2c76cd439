// Port `digitalGoods`: codes issued for digital lines (gift cards, licences) and revoked on undo.
import type { CodesToIssue, IssuedCode } from '../digital-codes-repo.js';

export interface DigitalGoodsPort {
  /** Issues one code per unit of each line, in line order: writes one `issued` row per code and returns the codes in clear. */
  issue(codes: CodesToIssue, now: number): Promise<IssuedCode[]>;
  /** Revokes the codes one node of the run issued that are still valid. */
  revoke(orderId: string, generation: number, nodeId: string, now: number): Promise<void>;
}
