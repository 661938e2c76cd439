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
  ['post', '/api/v1/batches', { body: true, ok: '202' }],
  ['get', '/api/v1/batches', { ok: '200' }],
  ['get', '/api/v1/batches/{id}', { ok: '200' }],
  ['post', '/api/v1/batches/{id}/pause', { ok: '200' }],
  ['post', '/api/v1/batches/{id}/resume', { ok: '200' }],
  ['post', '/api/v1/batches/{id}/cancel', { ok: '200' }],
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
    expect(list.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort()).toEqual(
      ['channel', 'createdAfter', 'createdBefore', 'cursor', 'flowId', 'flowVersion', 'limit', 'model', 'q', 'sellerId', 'sku', 'status', 'waitingAtNode'],
    );
    expect(start.requestBody.content['application/json'].schema.properties.input.properties.model.enum).toContain('marketplace');
  });

  it('is generated from the registry: operationId is the operation name, with its summary, description, tag and role', () => {
    const ops = t.service.ctx.operations.list().filter((op) => op.audience !== 'agents');
    const seen = new Map<string, any>();
    for (const methods of Object.values<any>(doc.paths)) for (const op of Object.values<any>(methods)) seen.set(op.operationId, op);
    for (const op of ops) {
      const documented = seen.get(op.name);
      expect(documented, op.name).toBeTruthy();
      expect(documented.summary).toBe(op.summary);
      expect(documented.description).toBe(op.description);
      expect(documented.tags).toEqual([op.feature]);
      expect(documented['x-required-role']).toBe(op.role);
    }
    expect(doc.paths['/api/v1/orders'].post.operationId).toBe('startOrder');
    expect(doc.paths['/api/v1/orders/{id}/events'].post.operationId).toBe('deliverEvent');
    // Ids stay unique across bound and raw routes.
    const ids = [...seen.keys()];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every operation has its own operationId: a camelCase name, unique, never derived from the path', () => {
    const ids: string[] = [];
    for (const [path, methods] of Object.entries<any>(doc.paths))
      for (const [method, op] of Object.entries<any>(methods)) {
        const id: unknown = op.operationId;
        expect(typeof id, `${method} ${path}`).toBe('string');
        expect(id, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        // The old fallback: the method and the path in PascalCase (e.g. postApiV1WebhooksEvents), parameters as By<Name>.
        const derived = `${method}${path.split('/').filter(Boolean).map((part) => (/^\{(.+)\}$/.test(part) ? `by-${part.slice(1, -1)}` : part).replace(/(^|[_.-])([a-zA-Z0-9])/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')).join('')}`;
        expect(String(id).toLowerCase().startsWith(derived.toLowerCase().replace(/\d+$/, '')), `${method} ${path}: ${String(id)} is path-derived`).toBe(false);
        ids.push(String(id));
      }
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // The signed, channel and system routes carry the names chosen for them.
    expect(doc.paths['/api/v1/webhooks/orders'].post.operationId).toBe('receiveSignedOrder');
    expect(doc.paths['/api/v1/channels/edi/850'].post.operationId).toBe('receiveEdi850');
  });

  it('answers are named component schemas, referenced from the responses', () => {
    for (const name of ['Error', 'Order', 'OrderListRow', 'OrderList', 'LiveState', 'LiveNode', 'DeliverResult', 'StartedOrder', 'Flow', 'FlowListRow', 'Person', 'ApiToken'])
      expect(doc.components.schemas[name], name).toBeTruthy();
    expect(doc.paths['/api/v1/orders/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LiveState' });
    expect(doc.components.schemas.OrderList.properties.orders.items).toEqual({ $ref: '#/components/schemas/OrderListRow' });
    expect(doc.components.schemas.LiveState.properties.order).toEqual({ $ref: '#/components/schemas/Order' });
    // Every reference resolves.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas[JSON.parse(ref).split('/').pop()], ref).toBeTruthy();
  });

  it('every JSON request body of an operation has an example that its own schema accepts', () => {
    const ops = new Map(t.service.ctx.operations.list().map((op) => [op.name, op]));
    for (const methods of Object.values<any>(doc.paths))
      for (const documented of Object.values<any>(methods)) {
        const op = ops.get(documented.operationId);
        const media = documented.requestBody?.content?.['application/json'];
        if (!op || !media) continue;
        expect(media.example, `${op.name} example`).toBeTruthy();
        const pathValues = Object.fromEntries((documented.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => [p.name, (op.example as any)?.[p.name]]));
        expect(op.input.safeParse({ ...media.example, ...pathValues }).success, `${op.name} example parses`).toBe(true);
      }
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
