// A new order's facts and lines from its validated input: what a start records and what a simulation runs on.
import type { CommerceOrderFacts } from '../commerce/commerce-order.js';
import type { CommerceSettings } from '../commerce/workspace-settings.js';
import type { OrderInput } from '../domain/order-input-schema.js';
import { fxRate } from '../domain/fx.js';
import { toMinor } from '../domain/money.js';
import { computeTotals } from '../domain/order-totals.js';
import type { NewOrderLine } from './new-order.js';

/** What a start makes of its input: the order's facts, its lines, the input as kept (without the document), the document. */
export interface OrderFromInput {
  facts: Omit<CommerceOrderFacts, 'returnOf'>;
  lines: NewOrderLine[];
  /** The input as the order keeps it: the document text lives in order_documents, not in every read of the order. */
  stored: Omit<OrderInput, 'documentText'>;
  documentText: string | undefined;
}

/**
 * The order's lines in minor units, its totals from the prices given (the flow's price step fills
 * the missing ones and re-totals) at the workspace's tax rate, and its currency's rate, fixed now.
 */
export function orderFromInput(input: OrderInput, settings: Pick<CommerceSettings, 'exchangeRates' | 'taxRate'>): OrderFromInput {
  const lines = linesOfInput(input);
  const totals = computeTotals(
    lines.filter((l) => l.unitPriceMinor !== null).map((l) => ({ unitPriceMinor: l.unitPriceMinor!, qty: l.qty })),
    settings.taxRate,
  );
  const { documentText, ...stored } = input;
  return {
    facts: {
      model: input.model,
      channel: input.channel,
      externalId: input.externalId ?? null,
      title: input.title ?? null,
      customerId: input.customerId ?? null,
      contactEmail: input.contact?.email ?? null,
      currency: input.currency,
      fxRate: fxRate(input.currency, settings.exchangeRates),
      subtotal: totals.subtotal,
      tax: totals.tax,
      total: totals.total,
    },
    lines,
    stored,
    documentText,
  };
}

/** The order's lines in minor units of its currency, as given (they do not depend on the workspace's settings). */
export function linesOfInput(input: OrderInput): NewOrderLine[] {
  return (input.lines ?? []).map((l) => ({
    sku: l.sku,
    name: l.name ?? null,
    qty: l.qty,
    unitPriceMinor: l.unitPrice === undefined ? null : toMinor(l.unitPrice, input.currency),
    sellerId: l.sellerId ?? null,
    locationId: l.locationId ?? null,
  }));
}
