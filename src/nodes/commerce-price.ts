// Node type `commerce.price`: fills missing unit prices from the catalogue in the order currency, then totals the order.
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { convertMinor } from '../domain/fx.js';
import { computeTotals } from '../domain/order-totals.js';
import { money, moneyText, noParams, type NoParams } from './commerce-support.js';

export const commercePrice: NodeTypeDef<NoParams> = {
  type: 'commerce.price',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Price order',
  description:
    'Prices every line without a unit price from the catalogue (USD), converted at the order\'s exchange rate and ' +
    'rounded once to the currency\'s minor unit; given prices are kept. Then sets subtotal, tax (workspace rate) and total.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ priced: [{ lineNo, sku, unitPrice }], kept, subtotal, tax, total, currency }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const { orderLines, settings: workspace, catalogue } = ctx.ports;
    const lines = await orderLines.read(order.id);
    if (lines.length === 0) throw new TerminalError('The order has no lines to price');
    const settings = await workspace.read();
    const products = await catalogue.productsBySku(lines.map((l) => l.sku));
    // The rate fixed on the order at start, so a later rate change does not reprice a running order.
    const rates = { USD: 1, [order.currency]: order.currency === 'USD' ? 1 : Number(order.fxRate) };
    const priced: { lineNo: number; sku: string; unitPrice: number }[] = [];
    const pricedLines = [];
    const prices: { lineNo: number; unitPriceMinor: number }[] = [];
    for (const line of lines) {
      let unit = line.unitPriceMinor;
      if (unit === null) {
        const product = products.get(line.sku);
        if (!product) throw new TerminalError(`No price for ${line.sku}: it is not in the catalogue and the line gives none`);
        unit = convertMinor(product.priceMinor, 'USD', order.currency, rates);
        prices.push({ lineNo: line.lineNo, unitPriceMinor: unit });
        priced.push({ lineNo: line.lineNo, sku: line.sku, unitPrice: money(unit, order.currency) });
      }
      pricedLines.push({ unitPriceMinor: unit, qty: line.qty });
    }
    await orderLines.setPrices(order.id, prices);
    const totals = computeTotals(pricedLines, settings.taxRate);
    orderLines.setTotals(order.id, totals);
    return {
      branch: 'ok',
      output: {
        priced,
        kept: lines.length - priced.length,
        subtotal: money(totals.subtotal, order.currency),
        tax: money(totals.tax, order.currency),
        total: money(totals.total, order.currency),
        currency: order.currency,
      },
      summary: `Priced ${priced.length} of ${lines.length} line(s); total ${moneyText(totals.total, order.currency)}`,
    };
  },
};
