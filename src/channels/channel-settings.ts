// The administrator's channel settings from the workspace row: order routes, EDI partners, the storefront platform.
import type { Queryable } from '../db/db.js';

export interface ChannelSettings {
  /** `model:channel` or `model:*` -> flow id; overrides the built-in routes key by key. */
  orderRoutes: Record<string, string>;
  /** EDI sender id (ISA06) -> customer id. */
  ediPartners: Record<string, string>;
  /** The platform's name key (`source` and `meta.<name>` of adapter orders); null when not configured. */
  platformName: string | null;
  /** The platform app's client secret (HMAC key); null = the adapter answers 503. */
  platformSecret: string | null;
}

/** Reads the settings at request time (the workspace file is applied at every start). */
export async function readChannelSettings(q: Queryable): Promise<ChannelSettings> {
  const { rows } = await q.query<{ order_routes: Record<string, string> | null; edi_partners: Record<string, string> | null; platform_name: string | null; platform_secret: string | null }>(
    'SELECT order_routes, edi_partners, platform_name, platform_secret FROM workspace WHERE id = 1');
  const row = rows[0];
  if (!row) throw new Error('The workspace settings are missing (the workspace file was not applied)');
  return {
    orderRoutes: row.order_routes ?? {},
    ediPartners: row.edi_partners ?? {},
    platformName: row.platform_name ?? null,
    platformSecret: row.platform_secret ?? null,
  };
}
