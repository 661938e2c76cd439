// The order summary of webhook payloads and list rows: amounts as decimal numbers in the order currency.
import { fromMinor, roundHalfUp, minorDigits } from '../domain/money.js';
import type { CommerceOrderFacts } from './commerce-order.js';

export interface OrderSummary {
  id: string;
  model: string;
  channel: string;
  externalId: string | null;
  title: string | null;
  customerId: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  fxRate: number;
  baseTotal: number;
  /** Only on a return (contract 18): the order it gives units back to. */
  returnOf?: string;
}

/** baseTotal is the total in USD: total / fxRate (units of currency per USD), rounded to cents. */
export function baseTotalUsd(totalMinor: number, currency: string, fxRate: number): number {
  const decimal = totalMinor / 10 ** minorDigits(currency);
  return fromMinor(roundHalfUp((decimal / fxRate) * 100), 'USD');
}

/** The summary of order `id` from its facts. */
export function orderSummary(id: string, o: CommerceOrderFacts): OrderSummary {
  return {
    id,
    model: o.model,
    channel: o.channel,
    externalId: o.externalId,
    title: o.title,
    customerId: o.customerId,
    currency: o.currency,
    subtotal: fromMinor(o.subtotal, o.currency),
    tax: fromMinor(o.tax, o.currency),
    total: fromMinor(o.total, o.currency),
    fxRate: o.fxRate,
    baseTotal: baseTotalUsd(o.total, o.currency, o.fxRate),
    ...(o.returnOf ? { returnOf: o.returnOf } : {}),
  };
}
