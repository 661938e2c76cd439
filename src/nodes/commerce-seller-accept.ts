// Node type `commerce.seller_accept`: records a seller's answer (or expires the silent ones) and picks the branch.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { pricedLine } from '../commerce/priced-line.js';
import { computeTotals } from '../domain/order-totals.js';
import { evaluateSellerAccept, type SellerAcceptCommand } from '../domain/seller-accept.js';
import { money, moneyText } from './commerce-support.js';

export const sellerAcceptParams = z.strictObject({
  /** `from_event` reads vars.seller_responded; `expire_pending` runs when the wait timed out. */
  mode: z.enum(['from_event', 'expire_pending']).default('from_event'),
});

export type SellerAcceptParams = z.infer<typeof sellerAcceptParams>;

export const commerceSellerAccept: NodeTypeDef<SellerAcceptParams> = {
  type: 'commerce.seller_accept',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Seller acceptance',
  description:
    'from_event: applies vars.seller_responded `{ sellerId, decision: accepted|rejected, reason? }` to that seller\'s ' +
    'pending seller order (answers for parts already decided change nothing; a payload without sellerId or a valid ' +
    'decision fails the step). expire_pending: every pending part becomes rejected with reason "No response". ' +
    'Branch: pending (someone still to answer), accepted (all accepted), partial (some rejected: their lines are ' +
    'dropped and the order re-totaled), rejected (none accepted).',
  params: sellerAcceptParams,
  branches: () => ['pending', 'accepted', 'partial', 'rejected'],
  defaultBranch: null,
  eventPayload: {
    event: 'seller.responded',
    fields: [
      { name: 'sellerId', required: true, value: '"<the seller\'s id>"' },
      { name: 'decision', required: true, value: '"accepted" | "rejected"' },
      { name: 'reason', required: false, value: '"<why, when rejected>"' },
    ],
  },
  outputs: '{ mode, answer, changed, sellerOrders: [{ sellerId, status, reason }], pendingSellers, rejectedSellers, total }',
  vars: 'vars.pendingSellers, vars.rejectedSellers (third-party sellers whose lines were dropped on partial)',
  async run(ctx): Promise<StepResult> {
    const { order, params } = ctx;
    const { sellerOrders, orderLines, settings } = ctx.ports;
    const now = ctx.clock.now();
    const stored = await sellerOrders.lock(order.id);
    const payload = ctx.vars.seller_responded;
    const command: SellerAcceptCommand = params.mode === 'expire_pending' ? { mode: 'expire_pending' } : { mode: 'from_event', payload };
    const result = evaluateSellerAccept(stored, command);
    if (!result.ok) throw new TerminalError(result.message, 'invalid_seller_response');
    // Everything is decided before the first write (decidesBeforeWriting): on partial, the lines that stay and the new totals.
    let total = order.total;
    let partial: { dropped: number[]; totals: ReturnType<typeof computeTotals> } | null = null;
    if (result.branch === 'partial') {
      // The rejected sellers' lines leave the order; tax is recomputed on the new subtotal.
      const rejected = new Set(result.rejectedSellers);
      const lines = await orderLines.read(order.id);
      const isRejected = (l: (typeof lines)[number]) => l.sellerId !== null && rejected.has(l.sellerId);
      const totals = computeTotals(lines.filter((l) => !isRejected(l)).map(pricedLine), (await settings.read()).taxRate);
      partial = { dropped: lines.filter(isRejected).map((l) => l.lineNo), totals };
      total = totals.total;
    }
    for (const next of result.orders) {
      const before = stored.find((s) => s.id === next.id)!;
      if (before.status !== next.status) await sellerOrders.setStatus(next.id, next.status, next.reason ?? null, now);
    }
    if (partial) {
      await orderLines.drop(order.id, partial.dropped);
      orderLines.setTotals(order.id, partial.totals);
    }
    const answer = params.mode === 'from_event' ? (payload as Record<string, unknown>) : null;
    const summaryParts: string[] = [];
    if (params.mode === 'expire_pending') summaryParts.push(result.changed.length ? `No response from ${result.changed.join(', ')}` : 'Nobody pending');
    else if (result.changed.length) summaryParts.push(`${String(answer!.sellerId)} ${String(answer!.decision)}`);
    else summaryParts.push(`Answer from ${String(answer!.sellerId)} changed nothing`);
    if (result.branch === 'pending') summaryParts.push(`waiting for ${result.pendingSellers.join(', ')}`);
    if (result.branch === 'partial') summaryParts.push(`dropped ${result.rejectedSellers.join(', ')}; new total ${moneyText(total, order.currency)}`);
    return {
      branch: result.branch,
      output: {
        mode: params.mode,
        answer: answer ? { sellerId: answer.sellerId, decision: answer.decision, reason: answer.reason ?? null } : null,
        changed: result.changed,
        sellerOrders: result.orders.map((o) => ({ sellerId: o.sellerId, status: o.status, reason: o.reason ?? null })),
        pendingSellers: result.pendingSellers,
        rejectedSellers: result.rejectedSellers,
        total: money(total, order.currency),
      },
      vars: { pendingSellers: result.pendingSellers, rejectedSellers: result.rejectedSellers },
      summary: summaryParts.join('; '),
    };
  },
};
