// Unit tests for exchange rates (runtime-contract 3: rates are units per one USD; spec "Order input": unknown currency is a 400).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { convertMinor, fxRate, isSupportedCurrency, toBaseUsdMinor, usdPriceToMinor } from '../../../src/domain/fx.js';

const rates = { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 151.5, BHD: 0.376 };

describe('exchange rates are units of the currency per one USD', () => {
  it('fxRate returns the rate; an unknown currency is 400 "Unsupported currency X"', () => {
    expect(fxRate('EUR', rates)).toBe(0.92);
    let err: unknown;
    try {
      fxRate('CHF', rates);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'invalid_input', code: 'unsupported_currency', message: 'Unsupported currency CHF' });
    expect(() => fxRate('constructor', rates)).toThrow('Unsupported currency constructor');
    expect(() => fxRate('XXX', { XXX: 0 })).toThrow(DomainError);
    expect(isSupportedCurrency('JPY', rates)).toBe(true);
    expect(isSupportedCurrency('CHF', rates)).toBe(false);
  });

  it('baseTotal is the total in USD cents: total / rate', () => {
    expect(toBaseUsdMinor(9200, 'EUR', rates)).toBe(10000); // 92.00 EUR = 100.00 USD
    expect(toBaseUsdMinor(1515, 'JPY', rates)).toBe(1000); // 1515 yen (0 digits) = 10.00 USD
    expect(toBaseUsdMinor(1000, 'BHD', rates)).toBe(266); // 1.000 BHD = 2.6596 USD
    expect(toBaseUsdMinor(1234, 'USD', rates)).toBe(1234);
    expect(() => toBaseUsdMinor(100, 'CHF', rates)).toThrow('Unsupported currency CHF');
  });

  it('converts a USD catalogue price into the order currency, rounding once to its minor unit', () => {
    expect(usdPriceToMinor(12.5, 'USD', rates)).toBe(1250);
    expect(usdPriceToMinor(12.5, 'EUR', rates)).toBe(1150);
    expect(usdPriceToMinor(12.5, 'JPY', rates)).toBe(1894); // 1893.75 yen
    expect(usdPriceToMinor(89.99, 'GBP', rates)).toBe(7109); // 71.0921
    expect(usdPriceToMinor(10, 'BHD', rates)).toBe(3760);
  });

  it('convertMinor goes through USD between minor units of different digits', () => {
    expect(convertMinor(1150, 'EUR', 'JPY', rates)).toBe(1894); // 11.50 EUR = 12.5 USD = 1893.75 yen
    expect(convertMinor(1894, 'JPY', 'USD', rates)).toBe(1250);
    expect(convertMinor(777, 'GBP', 'GBP', rates)).toBe(777);
  });
});
