// The signed inbound route's body as the channel adapters (EDI 850, storefront platform) produce it.
import type { OrderChannel, OrderModel } from '../domain/order-input-schema.js';

/** One order line: the signed route's `{ sku, name?, qty, unitPrice?, sellerId? }`. */
export interface ChannelOrderLine {
  sku: string;
  name?: string;
  qty: number;
  unitPrice?: number;
}

/** Structured ship-to address; the route keeps it in `meta.shipTo`. */
export interface ChannelShipTo {
  name?: string;
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode: string;
  country: string;
  latitude?: number;
  longitude?: number;
}

/** A buyer without a customer account. */
export interface ChannelContact {
  email: string;
  name?: string;
}

/**
 * Body for the inbound start (a subset of `inboundOrderBodySchema`'s input). The adapters only
 * shape it; the route's schema still checks limits (externalId 1-200, title 140, integer qty).
 */
export interface ChannelOrderBody {
  model: OrderModel;
  channel: OrderChannel;
  externalId: string;
  title?: string;
  customerId?: string;
  contact?: ChannelContact;
  currency: string;
  lines: ChannelOrderLine[];
  source: string;
  shipTo?: ChannelShipTo;
  meta: Record<string, unknown>;
}
