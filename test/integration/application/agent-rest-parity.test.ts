// Issue 30: what an agent tool answers is what REST serves, because the tool adapts the REST-bound operation
// (get_order = GET /orders/:id/brief, find_orders = GET /orders/totals, needs_attention = GET /attention).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import { graphs, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';

let t: TestService;
let orderId: string;
const viewer: Principal = { kind: 'token', id: 'tok_parity', role: 'viewer', actor: 'token:parity', via: 'bearer' };
const tool = (name: string, input: unknown) => t.service.ctx.operations.callByName(name, viewer, input, { ip: null });

beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'parity-flow', graphs.approval);
  const res = await t.call('POST', '/api/v1/orders', startBody('parity-flow', { title: 'parity order' }));
  orderId = res.body.orderId;
});
afterAll(async () => {
  await t?.close();
});

describe('agent tools and REST serve one operation', () => {
  it('get_order answers GET /api/v1/orders/:id/brief (getOrderBrief), waits with leadsTo', async () => {
    const rest = await t.call('GET', `/api/v1/orders/${orderId}/brief`);
    expect(rest.status).toBe(200);
    expect(await tool('get_order', { orderId })).toEqual(rest.body);
    expect(rest.body.waits[0]).toMatchObject({ nodeId: 'review', kind: 'approval', label: 'Finance review' });
    expect(Object.keys(rest.body.waits[0].leadsTo).length).toBeGreaterThan(0);
    expect((await t.call('GET', '/api/v1/orders/ord_unknown/brief')).status).toBe(404);
  });

  it('find_orders answers GET /api/v1/orders/totals (getOrderTotals), which no order id shadows', async () => {
    const rest = await t.call('GET', '/api/v1/orders/totals?q=parity&status=waiting&limit=5');
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ count: 1, orders: [{ id: orderId }] });
    expect(await tool('find_orders', { q: 'parity', status: 'waiting', limit: 5 })).toEqual(rest.body);
    expect((await t.call('GET', '/api/v1/orders/totals?limit=0')).status).toBe(400);
  });

  it('needs_attention answers GET /api/v1/attention (getAttention)', async () => {
    const rest = await t.call('GET', '/api/v1/attention');
    expect(rest.status).toBe(200);
    expect(await tool('needs_attention', {})).toEqual(rest.body);
    expect(rest.body.approvals.map((a: { orderId: string }) => a.orderId)).toContain(orderId);
  });

  it('openapi.json names the new routes by operation', async () => {
    const doc = (await t.call('GET', '/api/v1/openapi.json', undefined, { token: null })).body;
    expect(doc.paths['/api/v1/orders/totals'].get.operationId).toBe('getOrderTotals');
    expect(doc.paths['/api/v1/orders/{id}/brief'].get.operationId).toBe('getOrderBrief');
    expect(doc.paths['/api/v1/attention'].get.operationId).toBe('getAttention');
    expect(doc.paths['/api/v1/orders/{id}/assessment'].post.operationId).toBe('assessOrder');
    expect(doc.paths['/api/v1/flows/{id}/proposals'].post.operationId).toBe('proposeFlowChange');
  });
});
