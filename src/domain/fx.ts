// Exchange rates (units of a currency per one USD): rate lookup, USD base totals, price conversion.
import { DomainError } from './errors.js';
import { minorDigits, roundHalfUp } from './money.js';

/** The workspace's `exchangeRates`: units of the currency per one USD (USD is 1). */
export type ExchangeRates = Readonly<Record<string, number>>;

export function unsupportedCurrency(currency: string): DomainError {
  return new DomainError('unsupported_currency', `Unsupported currency ${currency}`, 'invalid_input', { currency });
}

/** Units of `currency` per one USD; a currency without a usable rate is a 400 `Unsupported currency <X>`. */
export function fxRate(currency: string, rates: ExchangeRates): number {
  const rate = Object.hasOwn(rates, currency) ? rates[currency] : undefined;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) throw unsupportedCurrency(currency);
  return rate;
}

/** True when the workspace has a rate for `currency`. */
export function isSupportedCurrency(currency: string, rates: ExchangeRates): boolean {
  const rate = Object.hasOwn(rates, currency) ? rates[currency] : undefined;
  return typeof rate === 'number' && Number.isFinite(rate) && rate > 0;
}

/**
 * Converts minor units of `fromCurrency` into minor units of `toCurrency` through USD,
 * rounding once at the end (amount / fromRate x toRate, rescaled between minor-unit digits).
 */
export function convertMinor(amountMinor: number, fromCurrency: string, toCurrency: string, rates: ExchangeRates): number {
  const fromRate = fxRate(fromCurrency, rates);
  const toRate = fxRate(toCurrency, rates);
  if (fromCurrency === toCurrency) return amountMinor;
  const scale = 10 ** (minorDigits(toCurrency) - minorDigits(fromCurrency));
  return roundHalfUp(((amountMinor * toRate) / fromRate) * scale);
}

/** An order total in the order currency's minor units as USD cents (the order's `baseTotal`). */
export function toBaseUsdMinor(totalMinor: number, currency: string, rates: ExchangeRates): number {
  return convertMinor(totalMinor, currency, 'USD', rates);
}

/**
 * A catalogue price (decimal USD, e.g. 12.5) in minor units of the order currency, rounded once:
 * 12.5 USD is 1250 cents in USD, 1150 in EUR at 0.92, and 1894 yen at 151.5 (JPY has no minor digits).
 */
export function usdPriceToMinor(usdPrice: number, currency: string, rates: ExchangeRates): number {
  if (!Number.isFinite(usdPrice) || usdPrice < 0) throw new RangeError(`price must be a number >= 0, got ${usdPrice}`);
  const rate = fxRate(currency, rates);
  return roundHalfUp(usdPrice * rate * 10 ** minorDigits(currency));
}
