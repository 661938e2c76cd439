// Storefront-platform order-created mapping against every shared payload and synthetic cases (spec "Storefront-platform adapter", contract §10).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  mapPlatformOrder,
  MISSING_SKU_MESSAGE,
  type PlatformOrderResult,
} from '../../../src/channels/storefront/platform-order-mapper.js';
import { inboundOrderBodySchema } from '../../../src/domain/order-input-schema.js';
import { fixtureFiles, PLATFORM_DIR, platformFixture } from './channel-fixtures.js';

const PLATFORM = 'shopify';
const CUSTOMERS = [
  { id: 'cus_other', email: 'someone@example.com' },
  { id: 'cus_jon', email: 'Jon@Example.com' },
];
const opts = { platformName: PLATFORM, customers: CUSTOMERS };

type Json = Record<string, unknown>;
const fixture = (name: string): Json => platformFixture(name) as Json;

function orderOf(result: PlatformOrderResult) {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  // The adapter's body must be what the signed inbound route accepts (type and schema).
  const body: z.input<typeof inboundOrderBodySchema> = result.order;
  const parsed = inboundOrderBodySchema.safeParse(body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return result.order;
}

function errorOf(result: PlatformOrderResult): string {
  if (result.ok) throw new Error('expected ok: false');
  return result.error;
}

/** A small valid payload to vary one field at a time. */
function payload(overrides: Json = {}): Json {
  return {
    id: 1001,
    name: '#1001',
    email: 'jon@example.com',
    source_name: 'web',
    currency: 'EUR',
    company: null,
    customer: { first_name: 'Jon', last_name: 'Snow' },
    line_items: [{ sku: 'SKU-1', title: 'Thing', quantity: 2, price: '10.50' }],
    shipping_address: {
      name: 'Jon Snow', address1: '1 Wall St', address2: null, city: 'Winterfell', province_code: 'NO', zip: '00001', country_code: 'GB',
      latitude: null, longitude: null,
    },
    ...overrides,
  };
}

const SHIPPING = { name: 'Steve Shipper', line1: '123 Shipping Street', city: 'Shippington', region: 'KY', postalCode: '40003', country: 'US' };

describe('platform fixtures: the tests cover every file', () => {
  it('lists exactly the files of the fixture folder', () => {
    expect(fixtureFiles(PLATFORM_DIR)).toEqual([
      'derived__shopify_docs_2023-07_orders_create.payload.json',
      'derived__shopify_docs_2026-04_orders_create.payload.json',
      'gadget__exemplars_2025-04_orders_1__b2b_company_anonymized.json',
      'gadget__metadatas_2023-07_orders_create.json',
      'gadget__metadatas_2026-04_orders_create.json',
    ]);
  });
});

describe('platform fixtures', () => {
  it('docs example 2023-07: every field of the table (two lines with the same SKU stay two lines)', () => {
    const order = orderOf(mapPlatformOrder(platformFixture('derived__shopify_docs_2023-07_orders_create.payload.json'), opts));
    expect(order).toEqual({
      model: 'b2c',
      channel: 'web',
      // JSON.parse already rounded the 64-bit id 820982911946154508 (see SOURCES.md).
      externalId: '820982911946154500',
      title: '#9999',
      customerId: 'cus_jon',
      contact: { email: 'jon@example.com', name: 'John Smith' },
      currency: 'USD',
      lines: [
        { sku: 'IPOD2008PINK', name: 'IPod Nano - 8GB', qty: 1, unitPrice: 199 },
        { sku: 'IPOD2008PINK', name: 'IPod Nano - 8GB', qty: 1, unitPrice: 199 },
      ],
      source: PLATFORM,
      shipTo: SHIPPING,
      meta: { shopify: { id: '820982911946154500', name: '#9999' } },
    });
  });

  it('docs example 2026-04: five lines including bundle components with product_id null', () => {
    const order = orderOf(mapPlatformOrder(platformFixture('derived__shopify_docs_2026-04_orders_create.payload.json'), opts));
    expect(order).toMatchObject({ model: 'b2c', channel: 'web', externalId: '820982911946154500', title: '#9999', currency: 'USD', customerId: 'cus_jon' });
    expect(order.lines).toEqual([
      { sku: 'SKU2006-001', name: 'Aviator sunglasses', qty: 1, unitPrice: 89.99 },
      { sku: 'LENS-PROTECT-2YR', name: 'Lens Protection Plan (2 Year)', qty: 1, unitPrice: 19.99 },
      { sku: 'CASE-LEATHER-PREM', name: 'Premium Leather Case', qty: 1, unitPrice: 24.99 },
      { sku: 'SKU2006-020', name: 'Mid-century lounger', qty: 1, unitPrice: 159.99 },
      { sku: 'SKU2006-035', name: 'Coffee table', qty: 1, unitPrice: 119.99 },
    ]);
    expect(order.contact).toEqual({ email: 'jon@example.com', name: 'John Smith' });
    expect(order.shipTo).toEqual(SHIPPING);
  });

  it('gadget metadata files: the `response` member maps exactly like the derived payload; the wrapper itself is not an order', () => {
    for (const version of ['2023-07', '2026-04']) {
      const wrapper = fixture(`gadget__metadatas_${version}_orders_create.json`);
      const derived = platformFixture(`derived__shopify_docs_${version}_orders_create.payload.json`);
      expect(mapPlatformOrder(wrapper.response, opts)).toEqual(mapPlatformOrder(derived, opts));
      expect(mapPlatformOrder(wrapper, opts)).toEqual({ ok: false, error: 'Order id is missing' });
    }
  });

  it('anonymised B2B exemplar: its placeholder price "example string" is not a number, so it is rejected', () => {
    const result = mapPlatformOrder(platformFixture('gadget__exemplars_2025-04_orders_1__b2b_company_anonymized.json'), opts);
    expect(errorOf(result)).toBe('Line item #1 (example string): price "example string" is not a number');
  });

  it('anonymised B2B exemplar: `company` present maps to model b2b (price patched to a number)', () => {
    const exemplar = fixture('gadget__exemplars_2025-04_orders_1__b2b_company_anonymized.json');
    const items = exemplar.line_items as Json[];
    const patched = { ...exemplar, line_items: [{ ...items[0], price: '123.00' }] };
    const result = mapPlatformOrder(patched, opts);
    if (!result.ok) throw new Error(result.error);
    // Placeholders pass through unvalidated: the route's schema answers 400 for currency "example string".
    expect(result.order).toEqual({
      model: 'b2b',
      channel: 'web', // source_name "example string" is neither pos nor iphone/android
      externalId: '123',
      title: 'example string',
      currency: 'example string',
      lines: [{ sku: '2019-01-01 00:00:00.000Z', name: 'example string', qty: 123, unitPrice: 123 }],
      source: PLATFORM,
      // No email: no contact, no customerId. shipping_address lacks address1/city/zip: no shipTo.
      meta: { shopify: { id: '123', name: 'example string' } },
    });
    expect(inboundOrderBodySchema.safeParse(result.order).success).toBe(false);
  });
});

describe('field rules', () => {
  it('id becomes externalId as a string; source and the meta key are the platform name', () => {
    const order = orderOf(mapPlatformOrder(payload({ id: 5123456789012 }), { platformName: 'acmeshop', customers: [] }));
    expect(order.externalId).toBe('5123456789012');
    expect(order.source).toBe('acmeshop');
    expect(order.meta).toEqual({ acmeshop: { id: '5123456789012', name: '#1001' } });
    expect(orderOf(mapPlatformOrder(payload({ id: '77' }), opts)).externalId).toBe('77');
    expect(errorOf(mapPlatformOrder(payload({ id: null }), opts))).toBe('Order id is missing');
  });

  it('source_name: pos -> pos; iphone and android -> mobile; anything else -> web', () => {
    const channel = (source_name: unknown) => orderOf(mapPlatformOrder(payload({ source_name }), opts)).channel;
    expect(channel('pos')).toBe('pos');
    expect(channel('iphone')).toBe('mobile');
    expect(channel('android')).toBe('mobile');
    expect(channel('web')).toBe('web');
    expect(channel('shopify_draft_order')).toBe('web');
    expect(channel(undefined)).toBe('web');
  });

  it('company present -> b2b; null or absent -> b2c', () => {
    const model = (extra: Json) => orderOf(mapPlatformOrder(payload(extra), opts)).model;
    expect(model({ company: { id: 1, location_id: 2 } })).toBe('b2b');
    expect(model({ company: null })).toBe('b2c');
    expect(model({ company: undefined })).toBe('b2c');
  });

  it('customerId is the customer whose email matches the payload email, ignoring case; else none', () => {
    expect(orderOf(mapPlatformOrder(payload({ email: 'JON@example.COM' }), opts)).customerId).toBe('cus_jon');
    expect(orderOf(mapPlatformOrder(payload({ email: 'nobody@example.com' }), opts))).not.toHaveProperty('customerId');
    // The match is on the top-level email, not on customer.email.
    const viaCustomer = payload({ email: 'nobody@example.com', customer: { email: 'jon@example.com', first_name: 'J' } });
    expect(orderOf(mapPlatformOrder(viaCustomer, opts))).not.toHaveProperty('customerId');
  });

  it('contact is the payload email with `first last` of customer; no email, no contact', () => {
    expect(orderOf(mapPlatformOrder(payload(), opts)).contact).toEqual({ email: 'jon@example.com', name: 'Jon Snow' });
    expect(orderOf(mapPlatformOrder(payload({ customer: { first_name: 'Jon', last_name: null } }), opts)).contact).toEqual({ email: 'jon@example.com', name: 'Jon' });
    expect(orderOf(mapPlatformOrder(payload({ customer: null }), opts)).contact).toEqual({ email: 'jon@example.com' });
    const noEmail = orderOf(mapPlatformOrder(payload({ email: null }), opts));
    expect(noEmail).not.toHaveProperty('contact');
    expect(noEmail).not.toHaveProperty('customerId');
  });

  it('currency is kept; a missing currency is rejected rather than defaulted', () => {
    expect(orderOf(mapPlatformOrder(payload(), opts)).currency).toBe('EUR');
    expect(errorOf(mapPlatformOrder(payload({ currency: null }), opts))).toBe('Order currency is missing');
  });

  it('shipTo maps the address fields; line2 and region only when present', () => {
    expect(orderOf(mapPlatformOrder(payload(), opts)).shipTo).toEqual({
      name: 'Jon Snow', line1: '1 Wall St', city: 'Winterfell', region: 'NO', postalCode: '00001', country: 'GB',
    });
    const withLine2 = payload({ shipping_address: { ...(payload().shipping_address as Json), address2: 'Flat 3' } });
    expect(orderOf(mapPlatformOrder(withLine2, opts)).shipTo).toMatchObject({ line2: 'Flat 3' });
  });

  it('latitude and longitude only when both are present', () => {
    const at = (latitude: unknown, longitude: unknown) =>
      orderOf(mapPlatformOrder(payload({ shipping_address: { ...(payload().shipping_address as Json), latitude, longitude } }), opts)).shipTo;
    expect(at(45.4215, -75.6972)).toMatchObject({ latitude: 45.4215, longitude: -75.6972 });
    expect(at(45.4215, null)).not.toHaveProperty('latitude');
    expect(at(null, -75.6972)).not.toHaveProperty('longitude');
    expect(at(0, 0)).toMatchObject({ latitude: 0, longitude: 0 });
  });

  it('shipTo is omitted when there is no shipping address or it lacks street, city, zip or country', () => {
    expect(orderOf(mapPlatformOrder(payload({ shipping_address: null }), opts))).not.toHaveProperty('shipTo');
    const noZip = payload({ shipping_address: { ...(payload().shipping_address as Json), zip: '' } });
    expect(orderOf(mapPlatformOrder(noZip, opts))).not.toHaveProperty('shipTo');
  });

  it('title is the platform order name', () => {
    expect(orderOf(mapPlatformOrder(payload({ name: '#42' }), opts)).title).toBe('#42');
  });
});

describe('line items', () => {
  it('each line is { sku, name: title, qty: quantity, unitPrice: Number(price) }', () => {
    expect(orderOf(mapPlatformOrder(payload(), opts)).lines).toEqual([{ sku: 'SKU-1', name: 'Thing', qty: 2, unitPrice: 10.5 }]);
  });

  it('a line whose sku is null is rejected with "Line items without a SKU"', () => {
    const items = [{ sku: 'A', title: 'Ok', quantity: 1, price: '1.00' }, { sku: null, title: 'Gift wrap', quantity: 1, price: '2.00' }];
    const error = errorOf(mapPlatformOrder(payload({ line_items: items }), opts));
    expect(error.startsWith(MISSING_SKU_MESSAGE)).toBe(true);
    expect(error).toBe('Line items without a SKU: #2 (Gift wrap)');
  });

  it('a line whose sku is "" (or missing) is rejected the same way, all such lines named', () => {
    const items = [{ sku: '', title: 'Custom', quantity: 1, price: '1.00' }, { title: 'No key', quantity: 1, price: '1.00' }];
    expect(errorOf(mapPlatformOrder(payload({ line_items: items }), opts))).toBe('Line items without a SKU: #1 (Custom), #2 (No key)');
  });

  it('a price that is not a number is rejected', () => {
    const items = [{ sku: 'A', title: 'Thing', quantity: 1, price: 'free' }];
    expect(errorOf(mapPlatformOrder(payload({ line_items: items }), opts))).toBe('Line item #1 (Thing): price "free" is not a number');
    expect(errorOf(mapPlatformOrder(payload({ line_items: [{ sku: 'A', quantity: 1, price: null }] }), opts))).toBe('Line item #1: price null is not a number');
    expect(orderOf(mapPlatformOrder(payload({ line_items: [{ sku: 'A', quantity: 1, price: 3 }] }), opts)).lines[0].unitPrice).toBe(3);
  });

  it('quantity must be positive; an order without line items is rejected', () => {
    expect(errorOf(mapPlatformOrder(payload({ line_items: [{ sku: 'A', quantity: 0, price: '1' }] }), opts))).toBe('Line item #1: quantity 0 is not a positive number');
    expect(errorOf(mapPlatformOrder(payload({ line_items: [] }), opts))).toBe('Order has no line items');
  });

  it('a payload that is not an object is rejected', () => {
    for (const bad of [null, 'order', 42, [payload()]]) expect(errorOf(mapPlatformOrder(bad, opts))).toBe('Payload is not a JSON object');
  });
});
