// Maps a storefront-platform (Shopify-shaped) order-created payload to a signed-inbound order body (spec "Storefront-platform adapter").
import type { OrderChannel } from '../../domain/order-input-schema.js';
import type { ChannelContact, ChannelOrderBody, ChannelOrderLine, ChannelShipTo } from '../channel-order-body.js';

/** A workspace customer the payload's email may match. */
export interface PlatformCustomer {
  id: string;
  email: string;
}

/** What the adapter knows besides the payload. */
export interface PlatformOrderOptions {
  /** The platform's name key: `source` and the `meta` key of the order. */
  platformName: string;
  customers: PlatformCustomer[];
}

/** `meta[platformName]` of a platform order. */
export interface PlatformOrderMeta {
  id: string;
  name?: string;
}

/** A mapped order, or the reason (a 400 at the route) it cannot be mapped. */
export type PlatformOrderResult = { ok: true; order: ChannelOrderBody } | { ok: false; error: string };

/** Prefix of the error for lines whose `sku` is null, empty or missing (the spec's 400 message). */
export const MISSING_SKU_MESSAGE = 'Line items without a SKU';

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

type Json = Record<string, unknown>;

/** Thrown inside the mapping; caught into `{ ok: false }`. */
class MappingError extends Error {}

/** Maps an order-created payload. Never throws: every unmappable payload is `ok: false`. */
export function mapPlatformOrder(payload: unknown, opts: PlatformOrderOptions): PlatformOrderResult {
  try {
    return { ok: true, order: buildOrder(payload, opts) };
  } catch (error) {
    if (error instanceof MappingError) return { ok: false, error: error.message };
    throw error;
  }
}

function buildOrder(payload: unknown, opts: PlatformOrderOptions): ChannelOrderBody {
  if (!isObject(payload)) throw new MappingError('Payload is not a JSON object');
  const externalId = readId(payload.id);
  const currency = text(payload.currency);
  if (currency === undefined) throw new MappingError('Order currency is missing');
  const lines = readLines(payload.line_items);
  const email = text(payload.email);
  const contact = email === undefined ? undefined : readContact(email, payload.customer);
  const customerId = email === undefined ? undefined : matchCustomer(email, opts.customers);
  const shipTo = readShipTo(payload.shipping_address);
  const title = text(payload.name);
  const meta: PlatformOrderMeta = { id: externalId, ...(title !== undefined ? { name: title } : {}) };
  return {
    model: hasCompany(payload.company) ? 'b2b' : 'b2c',
    channel: channelOf(payload.source_name),
    externalId,
    ...(title !== undefined ? { title } : {}),
    ...(customerId !== undefined ? { customerId } : {}),
    ...(contact ? { contact } : {}),
    currency,
    lines,
    source: opts.platformName,
    ...(shipTo ? { shipTo } : {}),
    // A computed key defines an own property even for names like `__proto__`.
    meta: { [opts.platformName]: meta },
  };
}

/** The order id as a string; numbers are written as JSON.parse left them (ids above 2^53 are already rounded). */
function readId(id: unknown): string {
  if (typeof id === 'number' && Number.isInteger(id)) return String(id);
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  throw new MappingError('Order id is missing');
}

/** `pos` -> pos; `iphone`/`android` -> mobile; anything else -> web. */
function channelOf(sourceName: unknown): OrderChannel {
  const source = typeof sourceName === 'string' ? sourceName.trim().toLowerCase() : '';
  if (source === 'pos') return 'pos';
  if (source === 'iphone' || source === 'android') return 'mobile';
  return 'web';
}

/** B2B when the order carries a company (an object, or any non-empty value); null or absent is B2C. */
function hasCompany(company: unknown): boolean {
  return company !== null && company !== undefined && company !== false && company !== '';
}

/** Every line needs a SKU (first check, over all lines), a positive quantity and a numeric price. */
function readLines(items: unknown): ChannelOrderLine[] {
  if (!Array.isArray(items) || items.length === 0) throw new MappingError('Order has no line items');
  const missing = items
    .map((item, i) => (isObject(item) && skuOf(item.sku) !== undefined ? undefined : labelOf(item, i)))
    .filter((label): label is string => label !== undefined);
  if (missing.length > 0) throw new MappingError(`${MISSING_SKU_MESSAGE}: ${missing.join(', ')}`);
  return items.map((item: Json, i) => {
    const label = labelOf(item, i);
    const qty = numberOf(item.quantity);
    if (qty === undefined || qty <= 0) throw new MappingError(`Line item ${label}: quantity ${show(item.quantity)} is not a positive number`);
    const unitPrice = numberOf(item.price);
    if (unitPrice === undefined) throw new MappingError(`Line item ${label}: price ${show(item.price)} is not a number`);
    if (unitPrice < 0) throw new MappingError(`Line item ${label}: price ${show(item.price)} is negative`);
    const name = text(item.title);
    return { sku: skuOf(item.sku) as string, ...(name !== undefined ? { name } : {}), qty, unitPrice };
  });
}

/** A SKU is a non-empty string (or a number, written as a string); null and '' are none. */
function skuOf(sku: unknown): string | undefined {
  if (typeof sku === 'number' && Number.isFinite(sku)) return String(sku);
  return text(sku);
}

/** `#<position> (<title>)` for messages. */
function labelOf(item: unknown, index: number): string {
  const title = isObject(item) ? text(item.title) : undefined;
  return `#${index + 1}${title !== undefined ? ` (${title})` : ''}`;
}

/** `contact.email` from the payload, `contact.name` as `first last` of `customer`. */
function readContact(email: string, customer: unknown): ChannelContact {
  const parts = isObject(customer) ? [text(customer.first_name), text(customer.last_name)].filter((p) => p !== undefined) : [];
  return { email, ...(parts.length > 0 ? { name: parts.join(' ') } : {}) };
}

/** The workspace customer whose email equals the payload's, ignoring case. */
function matchCustomer(email: string, customers: PlatformCustomer[]): string | undefined {
  const wanted = email.toLowerCase();
  return customers.find((customer) => typeof customer.email === 'string' && customer.email.trim().toLowerCase() === wanted)?.id;
}

/**
 * shipTo from `shipping_address`: name, address1, address2, city, province_code, zip,
 * country_code; latitude/longitude only when both are in range. Omitted unless address1,
 * city, zip and country_code exist (a partial address would fail the route's schema).
 */
function readShipTo(address: unknown): ChannelShipTo | undefined {
  if (!isObject(address)) return undefined;
  const line1 = text(address.address1);
  const city = text(address.city);
  const postalCode = text(address.zip);
  const country = text(address.country_code);
  if (line1 === undefined || city === undefined || postalCode === undefined || country === undefined) return undefined;
  const name = text(address.name);
  const line2 = text(address.address2);
  const region = text(address.province_code);
  const { latitude, longitude } = address;
  const located =
    typeof latitude === 'number' && typeof longitude === 'number' && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
  return {
    ...(name !== undefined ? { name } : {}),
    line1,
    ...(line2 !== undefined ? { line2 } : {}),
    city,
    ...(region !== undefined ? { region } : {}),
    postalCode,
    country,
    ...(located ? { latitude, longitude } : {}),
  };
}

/** A trimmed non-empty string, else undefined. */
function text(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const trimmed = input.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A finite number from a JSON number or a decimal string such as "199.00". */
function numberOf(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? input : undefined;
  if (typeof input === 'string' && DECIMAL.test(input.trim())) return Number(input.trim());
  return undefined;
}

/** A value as it appears in an error message. */
function show(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(input);
  if (input === null || ['number', 'boolean', 'undefined', 'bigint'].includes(typeof input)) return String(input);
  return Array.isArray(input) ? 'an array' : `a ${typeof input}`;
}

function isObject(input: unknown): input is Json {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}
