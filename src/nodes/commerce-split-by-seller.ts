// Node type `commerce.split_by_seller`: one seller order per seller; `accepted` when nothing is pending, else `awaiting`.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { pricedLine } from '../commerce/priced-line.js';
import { splitBySeller } from '../domain/seller-split.js';
import { money, noParams, type NoParams } from './commerce-support.js';

async function cancelSellerOrders(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.ports.sellerOrders.cancelOpen(ctx.order.id, ctx.clock.now());
}

export const commerceSplitBySeller: NodeTypeDef<NoParams> = {
  type: 'commerce.split_by_seller',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Split by seller',
  description:
    'Resolves each line\'s seller (line sellerId, then the product\'s seller, else first party) and creates one seller ' +
    'order per seller: first party and auto-accepting sellers accepted, others pending. An unknown or inactive seller ' +
    'fails without retry. Running again changes nothing. Undo cancels pending and accepted seller orders (rejected stay).',
  params: noParams,
  branches: () => ['accepted', 'awaiting'],
  defaultBranch: null,
  outputs: '{ sellerOrders: [{ sellerId, status, subtotal, lines }], sellers, pendingSellers }',
  vars: 'vars.sellers (third-party seller ids), vars.pendingSellers (those still to answer)',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const { orderLines, catalogue, sellerOrders } = ctx.ports;
    const now = ctx.clock.now();
    const lines = await orderLines.read(order.id);
    const priced = lines.map((l) => {
      try {
        return pricedLine(l);
      } catch (err) {
        throw new TerminalError((err as Error).message);
      }
    });
    const products = await catalogue.productsBySku(lines.map((l) => l.sku));
    const sellerIds = [...lines.map((l) => l.sellerId), ...[...products.values()].map((p) => p.sellerId)].filter((s): s is string => !!s);
    const sellers = await catalogue.sellersById(sellerIds);
    const split = splitBySeller(priced, { productOf: (sku) => products.get(sku), sellerOf: (id) => sellers.get(id) });
    if (!split.ok) throw new TerminalError(split.message, split.code);
    const moved = split.parts.flatMap((part) =>
      part.lines.filter((line) => line.sellerId !== lines.find((l) => l.lineNo === line.lineNo)!.sellerId).map((line) => ({ lineNo: line.lineNo, sellerId: line.sellerId })),
    );
    await orderLines.setSellers(order.id, moved);
    // What is stored wins: a split that ran before keeps the statuses sellers already gave.
    const stored = await sellerOrders.create(
      order.id,
      order.currency,
      split.parts.map((part) => ({
        sellerId: part.sellerId,
        lines: part.lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, name: l.name, qty: l.qty, unitPriceMinor: l.unitPriceMinor })),
        subtotalMinor: part.subtotal,
        status: part.status,
      })),
      now,
    );
    const pendingSellers = stored.flatMap((s) => (s.sellerId !== null && s.status === 'pending' ? [s.sellerId] : []));
    const thirdParty = stored.flatMap((s) => (s.sellerId !== null ? [s.sellerId] : []));
    const branch = pendingSellers.length > 0 ? 'awaiting' : 'accepted';
    return {
      branch,
      output: {
        sellerOrders: stored.map((s) => ({ sellerId: s.sellerId, status: s.status, subtotal: money(s.subtotalMinor, s.currency), lines: s.lines.length })),
        sellers: thirdParty,
        pendingSellers,
      },
      vars: { sellers: thirdParty, pendingSellers },
      summary:
        `${stored.length} seller order(s)` +
        (pendingSellers.length ? `; waiting for ${pendingSellers.join(', ')}` : '; all accepted'),
    };
  },
  compensate: cancelSellerOrders,
  cancel: cancelSellerOrders,
};
