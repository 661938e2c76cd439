// The commerce order's facts: what an order is about (model, channel, customer, currency, totals), read from and written to the orders row.
import type { OrderFacts } from '../engine/order-subject.js';

/** The order's business fields as steps see them (`ctx.order`); amounts are integer minor units. */
export type CommerceOrderFacts = {
  model: string;
  channel: string;
  externalId: string | null;
  title: string | null;
  customerId: string | null;
  contactEmail: string | null;
  currency: string;
  /** Units of the currency per USD, fixed at the start. */
  fxRate: number;
  subtotal: number;
  tax: number;
  total: number;
  /** The order a return gives units back to (contract 18): its payment refunds, its payouts net; null for any other order. */
  returnOf: string | null;
};

declare module '../engine/node-type.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the commerce facts join the engine's OrderView.
  interface OrderView extends CommerceOrderFacts {}
}

/** The commerce columns of an `orders` row as pg returns them (numeric and bigint columns arrive as text). */
export type CommerceOrderColumns = {
  model: string;
  channel: string;
  external_id: string | null;
  title: string | null;
  customer_id: string | null;
  contact_email: string | null;
  currency: string;
  fx_rate: string;
  subtotal_minor: string;
  tax_minor: string;
  total_minor: string;
  return_of: string | null;
};

/** The commerce columns by name, for a statement that reads only them. */
export const COMMERCE_ORDER_COLUMNS = 'model, channel, external_id, title, customer_id, contact_email, currency, fx_rate, subtotal_minor, tax_minor, total_minor, return_of';

export function toCommerceOrderFacts(r: CommerceOrderColumns): CommerceOrderFacts {
  return {
    model: r.model,
    channel: r.channel,
    externalId: r.external_id,
    title: r.title,
    customerId: r.customer_id,
    contactEmail: r.contact_email,
    currency: r.currency,
    fxRate: Number(r.fx_rate),
    subtotal: Number(r.subtotal_minor),
    tax: Number(r.tax_minor),
    total: Number(r.total_minor),
    returnOf: r.return_of ?? null,
  };
}

/** The facts a step may change (through `orderLines.setTotals`), and the column that stores each. */
const WRITABLE_COLUMNS: Readonly<Record<string, string>> = { subtotal: 'subtotal_minor', tax: 'tax_minor', total: 'total_minor' };

/** The columns that store `changed` facts; a fact no step may change is a bug of the port that changed it. */
export function commerceOrderColumns(changed: OrderFacts): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [fact, value] of Object.entries(changed)) {
    const column = WRITABLE_COLUMNS[fact];
    if (!column) throw new Error(`the order's ${fact} is not changed by steps`);
    columns[column] = value;
  }
  return columns;
}

/** The facts the engine carries for an order (read by commerceOrderFacts through the orders subject), typed again. */
export function asCommerceFacts(facts: OrderFacts): CommerceOrderFacts {
  return facts as unknown as CommerceOrderFacts;
}
