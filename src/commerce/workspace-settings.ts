// Reads the administrator's workspace settings the commerce steps need (rates, tax, return window, fraud threshold, port adapters).
import type { Queryable } from '../db/db.js';
import { cachedRows, referenceRows } from '../db/transaction-read-cache.js';
import type { ExchangeRates } from '../domain/fx.js';
import type { StoredHttpAdapter } from './http-adapter.js';

export interface CommerceSettings {
  exchangeRates: ExchangeRates;
  /** A fraction: 0.08 means 8%. */
  taxRate: number;
  returnWindowDays: number;
  /** A fraud score above this goes to review. */
  fraudThreshold: number;
  /** The ports served by an HTTP service (docs/integrations.md); null = the port's in-database ledger. */
  adapters: { payments: StoredHttpAdapter | null; carrier: StoredHttpAdapter | null };
}

/** The workspace columns behind CommerceSettings (`toCommerceSettings` reads a row of them; another statement may select them beside its own). */
export const COMMERCE_SETTINGS_COLUMNS = 'exchange_rates, tax_rate, return_window_days, fraud_threshold, adapters';

/** The COMMERCE_SETTINGS_COLUMNS of the `workspace` row as pg returns them (numeric columns as text). */
export interface CommerceSettingsDbRow {
  exchange_rates: ExchangeRates;
  tax_rate: string;
  return_window_days: number;
  fraud_threshold: string;
  adapters: { payments?: StoredHttpAdapter | null; carrier?: StoredHttpAdapter | null } | null;
}

/** The workspace row (applied from the workspace file at every start); a missing row is a setup bug. */
export async function readCommerceSettings(q: Queryable): Promise<CommerceSettings> {
  // A slice's reference cache first (one row, key "1"), then the transaction's read cache.
  const rows = await referenceRows(
    q,
    'workspace',
    ['1'],
    () => cachedRows<CommerceSettingsDbRow>(q, 'workspace', `SELECT ${COMMERCE_SETTINGS_COLUMNS} FROM workspace WHERE id = 1`, []),
    () => '1',
  );
  return toCommerceSettings(rows[0]);
}

/** CommerceSettings from a row holding COMMERCE_SETTINGS_COLUMNS. */
export function toCommerceSettings(row: CommerceSettingsDbRow | undefined): CommerceSettings {
  if (!row) throw new Error('The workspace settings are missing (the workspace file was not applied)');
  return {
    exchangeRates: row.exchange_rates,
    taxRate: Number(row.tax_rate),
    returnWindowDays: Number(row.return_window_days),
    fraudThreshold: Number(row.fraud_threshold),
    adapters: { payments: row.adapters?.payments ?? null, carrier: row.adapters?.carrier ?? null },
  };
}
