// Events, approvals and cancel over REST: limits, roles, `by` rules, 404 / 409 rows
// (spec "Deliver an event", "Decide an approval", "Cancel", "Errors", "Limits"; contract section 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startBody, startOrdersService, tokenFor } from './orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'approval-flow', graphs.approval);
});
afterAll(async () => {
  await t?.close();
});

const start = async (flowId: string, input: Record<string, unknown> = {}) => (await t.call('POST', '/api/v1/orders', startBody(flowId, input))).body.orderId as string;
const state = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;

describe('POST /orders/:id/events', () => {
  it('{ delivered: true, nodeId } to the waiting node; { delivered: false, waitingFor } naming what it waits for when nothing waits for the event', async () => {
    const id = await start('wait-flow');
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'other.thing' })).body).toEqual({ delivered: false, waitingFor: ['payment.received'] });
    const res = await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'payment.received', payload: { amount: 25 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ delivered: true, nodeId: 'pay' });
    const s = await state(id);
    expect(s.status).toBe('completed');
    expect(s.vars.payment_received).toMatchObject({ amount: 25, event: 'payment.received' });
    // Finished: it waits for nothing.
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'payment.received' })).body).toEqual({ delivered: false, waitingFor: [] });
  });

  it('event 1 to 100 characters and payload at most 32 KiB of JSON, else 400 with issues (contract 10)', async () => {
    const id = await start('wait-flow');
    const cases: [unknown, string][] = [
      [{ event: '' }, 'event'],
      [{ event: 'e'.repeat(101) }, 'event'],
      [{}, 'event'],
      [{ event: 'payment.received', payload: { blob: 'x'.repeat(32 * 1024) } }, 'payload'],
      [{ event: 'payment.received', payload: 'text' }, 'payload'],
      [{ event: 'payment.received', extra: 1 }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await t.call('POST', `/api/v1/orders/${id}/events`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.issues.some((i: { path: string }) => i.path === path)).toBe(true);
    }
    expect((await state(id)).status).toBe('waiting');
    // Exactly at the limits is accepted: 100-character name, payload of 32 KiB JSON.
    const payload = { blob: 'x'.repeat(32 * 1024 - 11) };
    expect(Buffer.byteLength(JSON.stringify(payload))).toBe(32 * 1024);
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'e'.repeat(100), payload })).body).toEqual({ delivered: false, waitingFor: ['payment.received'] });
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'payment.received', payload })).body).toEqual({ delivered: true, nodeId: 'pay' });
  });

  it('a body over 1 MiB stays a 413 (spec "Limits")', async () => {
    const id = await start('wait-flow');
    const res = await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'x', payload: { blob: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
  });

  it('404 for an unknown order; operator only (403 for an approver token)', async () => {
    expect((await t.call('POST', '/api/v1/orders/ord_nope/events', { event: 'payment.received' })).status).toBe(404);
    const id = await start('wait-flow');
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'payment.received' }, { token: await tokenFor(t, 'approver') })).status).toBe(403);
  });
});

describe('POST /orders/:id/approvals/:nodeId', () => {
  it('the workspace password decides as `api` by default, or names `by` (spec "Decide an approval")', async () => {
    const a = await start('approval-flow');
    expect((await t.call('POST', `/api/v1/orders/${a}/approvals/review`, { decision: 'approved', note: 'fine' })).body).toEqual({ ok: true });
    let s = await state(a);
    expect(s.status).toBe('completed');
    expect(s.nodes.review.output).toEqual({ decision: 'approved', by: 'api', note: 'fine', outcome: 'approved' });
    const b = await start('approval-flow');
    await t.call('POST', `/api/v1/orders/${b}/approvals/review`, { decision: 'rejected', by: 'Dana from finance' });
    s = await state(b);
    expect(s.status).toBe('declined');
    expect(s.nodes.review.output).toMatchObject({ decision: 'rejected', by: 'Dana from finance', note: null });
  });

  it('a token decides as itself (`token:<name>`), whatever `by` says; a viewer token is 403', async () => {
    const id = await start('approval-flow');
    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved' }, { token: await tokenFor(t, 'viewer') })).status).toBe(403);
    const approver = await tokenFor(t, 'approver', 'finance-bot');
    const res = await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved', by: 'someone else' }, { token: approver });
    expect(res.status).toBe(200);
    expect((await state(id)).nodes.review.output.by).toBe('token:finance-bot');
  });

  it('409 `That node is not waiting for an approval` when decided or not an approval; 404 unknown order', async () => {
    const id = await start('approval-flow');
    await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved' });
    for (const node of ['review', 'done', 'nope']) {
      const res = await t.call('POST', `/api/v1/orders/${id}/approvals/${node}`, { decision: 'approved' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'That node is not waiting for an approval' });
    }
    expect((await t.call('POST', '/api/v1/orders/ord_nope/approvals/review', { decision: 'approved' })).status).toBe(404);
  });

  it('decision approved|rejected, by up to 200 and note up to 2000 characters, else 400', async () => {
    const id = await start('approval-flow');
    for (const body of [{ decision: 'maybe' }, {}, { decision: 'approved', by: 'b'.repeat(201) }, { decision: 'approved', note: 'n'.repeat(2001) }]) {
      const res = await t.call('POST', `/api/v1/orders/${id}/approvals/review`, body);
      expect(res.status).toBe(400);
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    expect((await state(id)).status).toBe('waiting');
    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved', by: 'b'.repeat(200), note: 'n'.repeat(2000) })).status).toBe(200);
  });
});

describe('POST /orders/:id/cancel', () => {
  it('cancels with the default reason stating the API, then 409 with { error } once finished', async () => {
    const id = await start('wait-flow');
    expect((await t.call('POST', `/api/v1/orders/${id}/cancel`)).body).toEqual({ ok: true });
    const s = await state(id);
    expect(s.status).toBe('cancelled');
    expect(s.reason).toBe('Cancelled via the API');
    expect(s.waits).toEqual([]);
    const again = await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBeTypeOf('string');
  });

  it('keeps a given reason (up to 500 characters; 501 is 400); 404 unknown order; operator only', async () => {
    const id = await start('wait-flow');
    expect((await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'r'.repeat(501) })).status).toBe(400);
    expect((await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'x' }, { token: await tokenFor(t, 'approver') })).status).toBe(403);
    expect((await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'r'.repeat(500) })).status).toBe(200);
    expect((await state(id)).reason).toBe('r'.repeat(500));
    expect((await t.call('POST', '/api/v1/orders/ord_nope/cancel')).status).toBe(404);
  });

  it('GET of an unknown order is 404; a viewer reads the live state', async () => {
    expect((await t.call('GET', '/api/v1/orders/ord_nope')).status).toBe(404);
    const id = await start('approval-flow', { title: 'Read me' });
    const res = await t.call('GET', `/api/v1/orders/${id}`, undefined, { token: await tokenFor(t, 'viewer') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ orderId: id, status: 'waiting', waits: [expect.objectContaining({ nodeId: 'review', kind: 'approval', title: 'Review Read me' })] });
    for (const key of ['orderId', 'status', 'reason', 'order', 'flow', 'nodes', 'edges', 'waits', 'vars', 'timeline', 'instanceId', 'generation', 'updatedAt'])
      expect(res.body).toHaveProperty(key);
    expect(res.body.flow.graph.nodes.length).toBe(5);
  });
});
