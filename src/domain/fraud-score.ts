// Deterministic fraud risk score 0..100 from order signals; `meta.simulate: high_risk` forces 95.
//
// Signals and their weights (summed, capped at 100):
//   order_value        order total in USD: >= $500 -> 10, >= $2,000 -> 25, >= $10,000 -> 40 (highest band only)
//   guest              no customer account (no customerId) -> 15
//   anonymous          no customer account and no contact email either -> 10
//   disposable_email   contact email on a throwaway-mail domain (mailinator, yopmail, ...) -> 25
//   free_mail          contact email on a free-mail domain (gmail, yahoo, outlook, ...) -> 5
//   po_box             ship-to is a post-office box -> 20
//   many_lines         more than 20 lines -> 5
//   bulk_quantity      any line with qty >= 50, or 100 units or more in all -> 10
//   currency_mismatch  structured ship-to country whose currency differs from the order currency -> 10
// So a $50 guest order scores 15, a $10,000 guest order to a PO box 75 (over the default
// approval threshold of 70), a known customer's ordinary order 0. No clock, no randomness.
import { isPoBox } from './po-box.js';
import type { ShipTo } from './ship-to.js';
import { simulateSwitches } from './simulate.js';

export const FRAUD_WEIGHTS = {
  orderValue: [
    { minUsdCents: 1_000_000, points: 40 },
    { minUsdCents: 200_000, points: 25 },
    { minUsdCents: 50_000, points: 10 },
  ],
  guest: 15,
  anonymous: 10,
  disposableEmail: 25,
  freeMail: 5,
  poBox: 20,
  manyLines: 5,
  bulkQuantity: 10,
  currencyMismatch: 10,
} as const;

/** Score forced by `meta.simulate: high_risk`. */
export const SIMULATED_HIGH_RISK_SCORE = 95;

const MANY_LINES = 20;
const BULK_LINE_QTY = 50;
const BULK_TOTAL_QTY = 100;

const FREE_MAIL = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'ymail.com', 'hotmail.com', 'hotmail.co.uk', 'outlook.com',
  'live.com', 'msn.com', 'aol.com', 'icloud.com', 'me.com', 'mac.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.de',
  'gmx.net', 'web.de', 'mail.com', 'yandex.com', 'yandex.ru', 'mail.ru', 'zoho.com', 'qq.com', '163.com', 'fastmail.com',
]);

const DISPOSABLE_MAIL = new Set([
  'mailinator.com', 'guerrillamail.com', 'guerrillamail.net', 'sharklasers.com', '10minutemail.com', 'tempmail.com',
  'temp-mail.org', 'yopmail.com', 'trashmail.com', 'getnada.com', 'dispostable.com', 'maildrop.cc', 'throwawaymail.com',
  'fakeinbox.com', 'mintemail.com', 'mohmal.com',
]);

const EURO = ['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'];

/** Country (ISO 3166 alpha-2, plus a few common spellings) to its currency. */
const COUNTRY_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(EURO.map((c) => [c, 'EUR'])),
  US: 'USD', USA: 'USD', 'UNITED STATES': 'USD', CA: 'CAD', CAN: 'CAD', CANADA: 'CAD', MX: 'MXN',
  GB: 'GBP', UK: 'GBP', GBR: 'GBP', 'UNITED KINGDOM': 'GBP', JP: 'JPY', JPN: 'JPY', JAPAN: 'JPY',
  DEU: 'EUR', GERMANY: 'EUR', FRA: 'EUR', FRANCE: 'EUR', AU: 'AUD', NZ: 'NZD', CH: 'CHF', SE: 'SEK', NO: 'NOK', DK: 'DKK',
  PL: 'PLN', CZ: 'CZK', HU: 'HUF', CN: 'CNY', IN: 'INR', BR: 'BRL', KR: 'KRW', SG: 'SGD', HK: 'HKD', ZA: 'ZAR',
};

export interface FraudInput {
  /** The order total in USD cents (`baseTotal`). */
  baseTotalUsdMinor: number;
  currency: string;
  customerId?: string | null;
  contactEmail?: string | null;
  shipTo?: ShipTo | string | null;
  lines: readonly { qty: number }[];
  /** The order's `meta`; only `simulate` is read here. */
  meta?: unknown;
}

export interface FraudSignal {
  code: string;
  points: number;
  detail: string;
}

export interface FraudAssessment {
  score: number;
  signals: FraudSignal[];
}

function emailDomain(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  return at < 0 ? null : email.slice(at + 1).trim().toLowerCase();
}

/** The currency of a ship-to country, when we know it. */
export function countryCurrency(country: string): string | undefined {
  return COUNTRY_CURRENCY[country.trim().toUpperCase()];
}

/** Scores an order; `signals` explains the score (each with its points). */
export function fraudScore(input: FraudInput): FraudAssessment {
  const signals: FraudSignal[] = [];
  const add = (code: string, points: number, detail: string) => signals.push({ code, points, detail });

  const band = FRAUD_WEIGHTS.orderValue.find((b) => input.baseTotalUsdMinor >= b.minUsdCents);
  if (band) add('order_value', band.points, `order total of at least $${band.minUsdCents / 100} (USD)`);

  if (!input.customerId) {
    add('guest', FRAUD_WEIGHTS.guest, 'no customer account');
    if (!input.contactEmail) add('anonymous', FRAUD_WEIGHTS.anonymous, 'no customer account and no contact email');
  }

  const domain = emailDomain(input.contactEmail);
  if (domain && DISPOSABLE_MAIL.has(domain)) add('disposable_email', FRAUD_WEIGHTS.disposableEmail, `throwaway mail domain ${domain}`);
  else if (domain && FREE_MAIL.has(domain)) add('free_mail', FRAUD_WEIGHTS.freeMail, `free mail domain ${domain}`);

  if (isPoBox(input.shipTo)) add('po_box', FRAUD_WEIGHTS.poBox, 'ships to a PO box');

  if (input.lines.length > MANY_LINES) add('many_lines', FRAUD_WEIGHTS.manyLines, `${input.lines.length} lines`);
  const units = input.lines.reduce((sum, l) => sum + l.qty, 0);
  if (input.lines.some((l) => l.qty >= BULK_LINE_QTY) || units >= BULK_TOTAL_QTY)
    add('bulk_quantity', FRAUD_WEIGHTS.bulkQuantity, `${units} units`);

  if (input.shipTo && typeof input.shipTo === 'object') {
    const expected = countryCurrency(input.shipTo.country);
    if (expected && expected !== input.currency)
      add('currency_mismatch', FRAUD_WEIGHTS.currencyMismatch, `ships to ${input.shipTo.country} but pays in ${input.currency}`);
  }

  if (simulateSwitches(input.meta).has('high_risk')) {
    add('simulate_high_risk', SIMULATED_HIGH_RISK_SCORE, 'meta.simulate high_risk');
    return { score: SIMULATED_HIGH_RISK_SCORE, signals };
  }
  const score = Math.min(100, Math.max(0, signals.reduce((sum, s) => sum + s.points, 0)));
  return { score, signals };
}
