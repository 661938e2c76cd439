// Applies the workspace file as an upsert at every start (ids are stable keys).
import type { PoolClient } from 'pg';
import type { Workspace } from './workspace-schema.js';
import { toMinor } from '../domain/money.js';
import { readSetting, writeSetting } from '../db/settings-store.js';
import { parseDuration } from '../platform/duration.js';
import type { StoredHttpAdapter } from '../commerce/http-adapter.js';

/** The adapters as the workspace row keeps them (`workspace.adapters`): timeouts in milliseconds. */
function storedAdapters(adapters: Workspace['adapters']): Record<string, StoredHttpAdapter> {
  const stored: Record<string, StoredHttpAdapter> = {};
  for (const [port, a] of Object.entries(adapters))
    if (a) stored[port] = { url: a.url, secret: a.secret ?? null, timeoutMs: parseDuration(a.timeout) };
  return stored;
}

/**
 * Upserts workspace settings, locations, sellers, products (USD catalogue prices), stock
 * levels and customers. Rows the file no longer names are kept (orders refer to them).
 * `twoFactorRequirement` applies only when the file's own value changed since last start.
 */
export async function applyWorkspace(client: PoolClient, ws: Workspace, source: string, now: number): Promise<void> {
  await client.query(
    `INSERT INTO workspace (id, name, exchange_rates, tax_rate, return_window_days, fraud_threshold, order_routes,
                            edi_partners, platform_name, platform_secret, adapters, source, updated_at)
     VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, exchange_rates = EXCLUDED.exchange_rates,
       tax_rate = EXCLUDED.tax_rate, return_window_days = EXCLUDED.return_window_days,
       fraud_threshold = EXCLUDED.fraud_threshold, order_routes = EXCLUDED.order_routes,
       edi_partners = EXCLUDED.edi_partners, platform_name = EXCLUDED.platform_name,
       platform_secret = EXCLUDED.platform_secret, adapters = EXCLUDED.adapters, source = EXCLUDED.source, updated_at = EXCLUDED.updated_at`,
    [
      ws.name,
      JSON.stringify(ws.exchangeRates),
      ws.taxRate,
      ws.returnWindowDays,
      ws.fraud.approvalThreshold,
      JSON.stringify(ws.orderRoutes),
      JSON.stringify(ws.ediPartners),
      ws.platform?.name ?? null,
      ws.platform?.clientSecret ?? null,
      JSON.stringify(storedAdapters(ws.adapters)),
      source,
      now,
    ],
  );

  const fileTwoFactor = await readSetting<string>(client, 'two_factor_requirement_from_file');
  if (fileTwoFactor !== ws.twoFactorRequirement) {
    await writeSetting(client, 'two_factor_requirement_from_file', ws.twoFactorRequirement, now);
    await writeSetting(client, 'two_factor_requirement', ws.twoFactorRequirement, now);
  }

  for (const l of ws.locations)
    await client.query(
      `INSERT INTO locations (id, name, kind, latitude, longitude, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, latitude = EXCLUDED.latitude,
         longitude = EXCLUDED.longitude, updated_at = EXCLUDED.updated_at`,
      [l.id, l.name, l.kind, l.latitude, l.longitude, now],
    );
  for (const s of ws.sellers)
    await client.query(
      `INSERT INTO sellers (id, name, commission, auto_accept, active, email, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, commission = EXCLUDED.commission,
         auto_accept = EXCLUDED.auto_accept, active = EXCLUDED.active, email = EXCLUDED.email, updated_at = EXCLUDED.updated_at`,
      [s.id, s.name, s.commission, s.autoAccept, s.active, s.email ?? null, now],
    );
  for (const p of ws.products) {
    await client.query(
      `INSERT INTO products (sku, name, price_minor, seller_id, reorder_point, reorder_qty, digital, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (sku) DO UPDATE SET name = EXCLUDED.name, price_minor = EXCLUDED.price_minor,
         seller_id = EXCLUDED.seller_id, reorder_point = EXCLUDED.reorder_point, reorder_qty = EXCLUDED.reorder_qty,
         digital = EXCLUDED.digital, updated_at = EXCLUDED.updated_at`,
      [p.sku, p.name, toMinor(p.price, 'USD'), p.sellerId ?? null, p.reorderPoint, p.reorderQty ?? null, p.digital, now],
    );
    // Stock from the file seeds a level once; after that the service owns the count.
    for (const [locationId, onHand] of Object.entries(p.stock))
      await client.query(
        `INSERT INTO stock_levels (sku, location_id, on_hand, reserved, updated_at) VALUES ($1, $2, $3, 0, $4)
         ON CONFLICT (sku, location_id) DO NOTHING`,
        [p.sku, locationId, onHand, now],
      );
  }
  for (const c of ws.customers)
    await client.query(
      `INSERT INTO customers (id, email, name, credit_limit_minor, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, name = EXCLUDED.name,
         credit_limit_minor = EXCLUDED.credit_limit_minor, updated_at = EXCLUDED.updated_at`,
      [c.id, c.email, c.name ?? null, c.creditLimit === undefined ? null : toMinor(c.creditLimit, 'USD'), now],
    );
}
