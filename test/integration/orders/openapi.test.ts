// openapi.json covers every orders, flows and webhook route with request and response schemas, and validates as
// OpenAPI 3.1 (spec "Versioning": generated from the same schemas the routes validate with).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { startOrdersService } from './orders-support.js';

/** Optional dev dependency; the validity test runs once it is installed. */
const VALIDATOR = '@seriousme/openapi-schema-validator';
const validator = await import(/* @vite-ignore */ VALIDATOR).catch(() => null);

let t: TestService;
let doc: any;
beforeAll(async () => {
  t = await startOrdersService();
  doc = (await t.call('GET', '/api/v1/openapi.json', undefined, { token: null })).body;
});
afterAll(async () => {
  await t?.close();
});

const ROUTES: [string, string, { body?: boolean; ok: string }][] = [
  ['post', '/api/v1/orders', { body: true, ok: '201' }],
  ['get', '/api/v1/orders', { ok: '200' }],
  ['get', '/api/v1/orders/{id}', { ok: '200' }],
  ['post', '/api/v1/orders/{id}/events', { body: true, ok: '200' }],
  ['post', '/api/v1/orders/{id}/approvals/{nodeId}', { body: true, ok: '200' }],
  ['post', '/api/v1/orders/{id}/cancel', { body: true, ok: '200' }],
  ['post', '/api/v1/orders/{id}/restart', { ok: '201' }],
  ['get', '/api/v1/flows', { ok: '200' }],
  ['get', '/api/v1/flows/{id}', { ok: '200' }],
  ['put', '/api/v1/flows/{id}', { body: true, ok: '200' }],
  ['post', '/api/v1/flows/{id}/publish', { ok: '200' }],
  ['get', '/api/v1/flows/{id}/versions/{v}/machine', { ok: '200' }],
  ['get', '/api/v1/webhook-subscriptions', { ok: '200' }],
  ['post', '/api/v1/webhook-subscriptions', { body: true, ok: '201' }],
  ['delete', '/api/v1/webhook-subscriptions/{id}', { ok: '200' }],
  ['get', '/api/v1/webhook-subscriptions/{id}/deliveries', { ok: '200' }],
];

describe('openapi.json', () => {
  it('lists every route of this API with its request body and success response schema', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const [method, path, want] of ROUTES) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeTruthy();
      expect(op.responses[want.ok]?.content?.['application/json']?.schema, `${method} ${path} ${want.ok}`).toBeTruthy();
      if (want.body) expect(op.requestBody.content['application/json'].schema, `${method} ${path} body`).toBeTruthy();
      expect(new Set(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name))).toEqual(new Set([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
    }
    const start = doc.paths['/api/v1/orders'].post;
    expect(start.parameters.some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
    expect(Object.keys(start.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '409', '422']));
    const list = doc.paths['/api/v1/orders'].get;
    expect(list.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort()).toEqual(['channel', 'cursor', 'limit', 'model', 'q', 'status']);
    expect(start.requestBody.content['application/json'].schema.properties.input.properties.model.enum).toContain('marketplace');
  });

  it.skipIf(!validator)(`validates as OpenAPI 3.1 (${VALIDATOR})`, async () => {
    const v = new validator.Validator();
    const res = await v.validate(doc);
    expect(res.errors ?? [], JSON.stringify(res.errors, null, 2)?.slice(0, 3000)).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe('3.1');
    // The validator does refuse a broken document (this test can fail).
    const broken = structuredClone(doc);
    broken.paths['/api/v1/orders'].get.responses = 'none';
    expect((await new validator.Validator().validate(broken)).valid).toBe(false);
  });
});
