// Unit tests for the order request schemas (spec "Order input", "Signed inbound orders route", "Limits").
import { describe, expect, it } from 'vitest';
import {
  inboundOrderBodySchema,
  orderInputSchema,
  startOrderBodySchema,
} from '../../../src/domain/order-input-schema.js';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (r.error?.issues ?? []).map((i) => i.path.join('.'));

describe('spec "Order input": the start body input', () => {
  it('model is required and channel defaults to api, currency to USD', () => {
    const r = orderInputSchema.parse({ model: 'b2c', lines: [{ sku: 'MUG-1', qty: 2 }] });
    expect(r.channel).toBe('api');
    expect(r.currency).toBe('USD');
    expect(paths(orderInputSchema.safeParse({}))).toEqual(['model']);
  });

  it('model and channel are closed enums', () => {
    expect(paths(orderInputSchema.safeParse({ model: 'retail' }))).toEqual(['model']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2b', channel: 'fax' }))).toEqual(['channel']);
    for (const model of ['b2b', 'b2c', 'd2c', 'marketplace', 'subscription', 'procurement', 'replenishment'])
      expect(orderInputSchema.safeParse({ model }).success).toBe(true);
    for (const channel of ['web', 'mobile', 'pos', 'marketplace', 'email', 'edi', 'api', 'manual', 'schedule'])
      expect(orderInputSchema.safeParse({ model: 'b2c', channel }).success).toBe(true);
  });

  it('limits: title 140, externalId 1..200, documentText 50,000, documentKey 200', () => {
    expect(orderInputSchema.safeParse({ model: 'b2c', title: 'x'.repeat(140) }).success).toBe(true);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', title: 'x'.repeat(141) }))).toEqual(['title']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', externalId: '' }))).toEqual(['externalId']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', externalId: 'e'.repeat(201) }))).toEqual(['externalId']);
    expect(orderInputSchema.safeParse({ model: 'b2c', documentText: 'd'.repeat(50_000) }).success).toBe(true);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', documentText: 'd'.repeat(50_001) }))).toEqual(['documentText']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', documentKey: 'k'.repeat(201) }))).toEqual(['documentKey']);
  });

  it('currency is a 3-letter uppercase code (the workspace rate is checked later)', () => {
    expect(orderInputSchema.parse({ model: 'b2c', currency: 'XYZ' }).currency).toBe('XYZ');
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', currency: 'usd' }))).toEqual(['currency']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', currency: 'EURO' }))).toEqual(['currency']);
  });

  it('contact needs a valid email; fulfillment a known method', () => {
    expect(orderInputSchema.safeParse({ model: 'b2c', contact: { email: 'a@example.com', name: 'A' } }).success).toBe(true);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', contact: { email: 'nope' } }))).toEqual(['contact.email']);
    expect(orderInputSchema.safeParse({ model: 'b2c', fulfillment: { method: 'pickup', locationId: 'store_soho' } }).success).toBe(true);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', fulfillment: { method: 'teleport' } }))).toEqual(['fulfillment.method']);
  });

  it('lines: sku 1..100, qty a positive integer, unitPrice >= 0 with any decimals, at most 500', () => {
    const line = { sku: 'MUG-1', qty: 1 };
    expect(orderInputSchema.safeParse({ model: 'b2c', lines: [{ ...line, unitPrice: 12.345, sellerId: 's', locationId: 'l' }] }).success).toBe(true);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', lines: [{ sku: '', qty: 1 }] }))).toEqual(['lines.0.sku']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', lines: [{ sku: 's'.repeat(101), qty: 1 }] }))).toEqual(['lines.0.sku']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', lines: [{ ...line, qty: 0 }] }))).toEqual(['lines.0.qty']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', lines: [{ ...line, qty: 1.5 }] }))).toEqual(['lines.0.qty']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', lines: [{ ...line, unitPrice: -1 }] }))).toEqual(['lines.0.unitPrice']);
    expect(orderInputSchema.safeParse({ model: 'b2c', lines: Array(500).fill(line) }).success).toBe(true);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', lines: Array(501).fill(line) }))).toEqual(['lines']);
  });

  it('strict: an unknown top-level or line key is an issue (catches typos)', () => {
    expect(orderInputSchema.safeParse({ model: 'b2c', curency: 'EUR' }).success).toBe(false);
    expect(orderInputSchema.safeParse({ model: 'b2c', lines: [{ sku: 'A', qty: 1, qyt: 2 }] }).success).toBe(false);
  });

  it('meta is free-form but its known keys are validated', () => {
    const ok = orderInputSchema.parse({ model: 'b2c', meta: { anything: { deep: 1 }, source: 'pos-7', simulate: ['high_risk'] } });
    expect(ok.meta).toEqual({ anything: { deep: 1 }, source: 'pos-7', simulate: ['high_risk'] });
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', meta: { source: 's'.repeat(61) } }))).toEqual(['meta.source']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', meta: { simulate: 'meteor' } }))).toEqual(['meta.simulate']);
    expect(paths(orderInputSchema.safeParse({ model: 'b2c', meta: { shipTo: 'x'.repeat(501) } }))).toEqual(['meta.shipTo']);
    expect(orderInputSchema.safeParse({ model: 'b2c', meta: { shipTo: 'x'.repeat(500) } }).success).toBe(true);
  });

  it('meta.shipTo object: line1, city, postalCode, country required; coordinates in range', () => {
    const addr = { line1: '1 Main St', city: 'Reno', postalCode: '89501', country: 'US', latitude: 39.5, longitude: -119.8 };
    expect(orderInputSchema.safeParse({ model: 'b2c', meta: { shipTo: addr } }).success).toBe(true);
    expect(orderInputSchema.safeParse({ model: 'b2c', meta: { shipTo: { ...addr, city: undefined } } }).success).toBe(false);
    expect(orderInputSchema.safeParse({ model: 'b2c', meta: { shipTo: { ...addr, latitude: 91 } } }).success).toBe(false);
    expect(orderInputSchema.safeParse({ model: 'b2c', meta: { shipTo: { ...addr, longitude: -180.5 } } }).success).toBe(false);
  });
});

describe('spec "Start an order": the start body', () => {
  it('needs flowId 1..100; version a positive integer; vars an object', () => {
    expect(startOrderBodySchema.safeParse({ flowId: 'tpl-marketplace-order', input: { model: 'marketplace' }, vars: { a: 1 } }).success).toBe(true);
    expect(paths(startOrderBodySchema.safeParse({ flowId: '', input: { model: 'b2c' } }))).toEqual(['flowId']);
    expect(paths(startOrderBodySchema.safeParse({ flowId: 'f', version: 0, input: { model: 'b2c' } }))).toEqual(['version']);
    expect(paths(startOrderBodySchema.safeParse({ flowId: 'f', version: 1.5, input: { model: 'b2c' } }))).toEqual(['version']);
    expect(paths(startOrderBodySchema.safeParse({ flowId: 'f', input: { model: 'b2c' }, vars: [1] }))).toEqual(['vars']);
    expect(paths(startOrderBodySchema.safeParse({ flowId: 'f' }))).toEqual(['input']);
  });
});

describe('spec "Signed inbound orders route": body rules', () => {
  const base = { model: 'b2c', channel: 'web', externalId: 'ext-1', lines: [{ sku: 'MUG-1', qty: 1 }] };

  it('accepts order input plus flowId, source, shipTo, vars', () => {
    const r = inboundOrderBodySchema.parse({ ...base, flowId: 'tpl-storefront-order', source: 'shop', shipTo: '1 Main St', vars: { x: 1 } });
    expect(r.currency).toBe('USD');
    expect(r.source).toBe('shop');
  });

  it('channel is required (no default) and externalId is required, 1..200', () => {
    expect(paths(inboundOrderBodySchema.safeParse({ ...base, channel: undefined }))).toEqual(['channel']);
    expect(paths(inboundOrderBodySchema.safeParse({ ...base, externalId: undefined }))).toEqual(['externalId']);
    expect(paths(inboundOrderBodySchema.safeParse({ ...base, externalId: '' }))).toEqual(['externalId']);
    expect(paths(inboundOrderBodySchema.safeParse({ ...base, model: undefined }))).toEqual(['model']);
  });

  it('needs at least one line or documentText', () => {
    const r = inboundOrderBodySchema.safeParse({ ...base, lines: [] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['lines'], message: 'Needs at least one line or documentText' });
    expect(inboundOrderBodySchema.safeParse({ ...base, lines: undefined, documentText: 'PO: 3 mugs' }).success).toBe(true);
  });

  it('source up to 60; shipTo string up to 500 or the address object', () => {
    expect(paths(inboundOrderBodySchema.safeParse({ ...base, source: 's'.repeat(61) }))).toEqual(['source']);
    expect(paths(inboundOrderBodySchema.safeParse({ ...base, shipTo: 'x'.repeat(501) }))).toEqual(['shipTo']);
    const shipTo = { name: 'Ann', line1: '1 Main', city: 'Reno', region: 'NV', postalCode: '89501', country: 'US' };
    expect(inboundOrderBodySchema.safeParse({ ...base, shipTo }).success).toBe(true);
    expect(inboundOrderBodySchema.safeParse({ ...base, shipTo: { ...shipTo, latitude: -91 } }).success).toBe(false);
  });

  it('inbound lines have no locationId (spec lists { sku, name?, qty, unitPrice?, sellerId? })', () => {
    expect(inboundOrderBodySchema.safeParse({ ...base, lines: [{ sku: 'A', qty: 1, locationId: 'x' }] }).success).toBe(false);
  });
});

describe('DESIGN rule 4: one schema, many uses', () => {
  it('the request schemas render as JSON Schema for OpenAPI (no transforms)', async () => {
    const { z } = await import('zod');
    const start = z.toJSONSchema(startOrderBodySchema) as { required?: string[]; properties: Record<string, unknown> };
    expect(start.required).toEqual(['flowId', 'input']);
    const inbound = z.toJSONSchema(inboundOrderBodySchema) as { required?: string[] };
    expect(inbound.required).toEqual(expect.arrayContaining(['model', 'channel', 'externalId']));
  });
});
