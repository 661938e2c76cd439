// The agents' read and write tools (contract section 11) called through the registry as a caller would over MCP or A2A.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import { e, graphs, n, publishFlow, startOrdersService } from '../orders/orders-support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestService;
const operator: Principal = { kind: 'person', id: 'per_agent', role: 'operator', actor: 'agent@example.com', via: 'bearer' };
const call = (tool: string, input: unknown) => t.service.ctx.operations.callByName(tool, operator, input, { ip: null }) as Promise<any>;
const place = async (flowId: string, input: Record<string, unknown>) => (await call('place_order', { flowId, input: { model: 'b2c', ...input } })).orderId as string;

beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'approval-flow', graphs.approval);
  await publishFlow(t, 'failing-flow', { nodes: [n('start', 'trigger.api'), n('fail', 'end', { outcome: 'failed', reason: 'Broken on purpose' })], edges: [e('start', 'fail')] });
});
afterAll(async () => {
  await t?.close();
});

describe('find_orders', () => {
  it('counts and totals every match in USD at each order’s own rate, answers at most limit rows newest first', async () => {
    const tag = `usd-${Date.now()}`;
    const usd = await place('wait-flow', { title: `${tag} usd`, currency: 'USD', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.2 }] });
    await place('wait-flow', { title: `${tag} eur`, currency: 'EUR', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.2 }] }); // 10 USD at 0.92
    const jpy = await place('wait-flow', { title: `${tag} jpy`, currency: 'JPY', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 1515 }] }); // 10 USD at 151.5
    const all = await call('find_orders', { q: tag });
    expect(all.count).toBe(3);
    expect(all.totalUsd).toBe(29.2);
    expect(all.orders.map((o: { id: string }) => o.id)[0]).toBe(jpy);
    const one = await call('find_orders', { q: tag, limit: 1 });
    expect([one.count, one.totalUsd, one.orders.length]).toEqual([3, 29.2, 1]);
    const dear = await call('find_orders', { q: tag, minTotalUsd: 9.5 });
    expect([dear.count, dear.totalUsd]).toEqual([2, 20]);
    const cheap = await call('find_orders', { q: tag, maxTotalUsd: 9.5 });
    expect(cheap.orders.map((o: { id: string }) => o.id)).toEqual([usd]);
  });

  it('filters by creation time and status; no match is a count of 0; unknown keys are refused', async () => {
    const tag = `time-${Date.now()}`;
    const before = await place('wait-flow', { title: `${tag} a` });
    const cut = t.service.ctx.clock.now() + 1;
    await t.advance(HOUR);
    const after = await place('wait-flow', { title: `${tag} b` });
    expect((await call('find_orders', { q: tag, createdAfter: cut })).orders.map((o: { id: string }) => o.id)).toEqual([after]);
    expect((await call('find_orders', { q: tag, createdBefore: cut })).orders.map((o: { id: string }) => o.id)).toEqual([before]);
    expect(await call('find_orders', { q: tag, status: 'completed' })).toEqual({ count: 0, totalUsd: 0, orders: [] });
    await expect(call('find_orders', { q: tag, colour: 'red' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});

describe('needs_attention', () => {
  it('lists open approvals oldest first, orders failed in the last 3 days, orders waiting over a day for an event', async () => {
    const first = await place('approval-flow', { title: 'first approval' });
    await t.advance(HOUR);
    const second = await place('approval-flow', { title: 'second approval' });
    const failed = await place('failing-flow', {});
    const waiting = await place('wait-flow', { title: 'waits for payment' });
    let now = await call('needs_attention', {});
    const approvals = now.approvals.map((a: { orderId: string }) => a.orderId);
    expect(approvals.indexOf(first)).toBeLessThan(approvals.indexOf(second));
    expect(now.approvals.find((a: { orderId: string }) => a.orderId === first)).toMatchObject({ nodeId: 'review', title: 'Review first approval', assignee: 'finance' });
    expect(now.failed.map((o: { id: string }) => o.id)).toContain(failed);
    expect(now.waiting.map((o: { id: string }) => o.id)).not.toContain(waiting);
    expect(now.counts.approvals).toBe(now.approvals.length);

    await t.advance(DAY + HOUR);
    now = await call('needs_attention', {});
    expect(now.waiting.find((o: { id: string }) => o.id === waiting)).toMatchObject({ event: 'payment.received' });
    await t.advance(2 * DAY);
    now = await call('needs_attention', {});
    expect(now.failed.map((o: { id: string }) => o.id)).not.toContain(failed);
  });
});

describe('decide_approval, get_order, cancel_order', () => {
  it('get_order shows where each decision leads; decide_approval finds the sole approval; a second decision is a conflict', async () => {
    const id = await place('approval-flow', { title: 'routing' });
    const brief = await call('get_order', { orderId: id });
    expect(brief.waits[0]).toMatchObject({ nodeId: 'review', label: 'Finance review', leadsTo: { approved: 'done', rejected: 'no', escalated: 'late' } });
    expect(await call('decide_approval', { orderId: id, decision: 'rejected' })).toEqual({ ok: true, nodeId: 'review' });
    expect((await call('get_order', { orderId: id })).status).toBe('declined');
    await expect(call('decide_approval', { orderId: id, decision: 'approved' })).rejects.toMatchObject({ kind: 'conflict' });
    await expect(call('decide_approval', { orderId: 'ord_nothing', decision: 'approved' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('cancel_order records the agent as the reason when none is given', async () => {
    const id = await place('wait-flow', {});
    expect(await call('cancel_order', { orderId: id })).toEqual({ ok: true });
    const order = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect([order.status, order.reason]).toEqual(['cancelled', 'Cancelled by an agent (agent@example.com)']);
  });
});

describe('catalogue and flows', () => {
  it('find_products sums stock over locations; belowReorderPoint keeps only low products', async () => {
    const { products } = await call('find_products', { sku: 'MUG-1' });
    expect(products).toEqual([{ sku: 'MUG-1', name: 'Stoneware mug', sellerId: null, stock: 180, reserved: 0, available: 180, reorderPoint: 20 }]);
    expect((await call('find_products', { belowReorderPoint: true })).products.map((p: { sku: string }) => p.sku)).not.toContain('MUG-1');
    await t.service.ctx.db.query("UPDATE stock_levels SET on_hand = 1 WHERE sku = 'MUG-1'");
    expect((await call('find_products', { belowReorderPoint: true })).products.map((p: { sku: string }) => p.sku)).toContain('MUG-1');
    expect((await call('find_products', { q: 'stoneware' })).products.map((p: { sku: string }) => p.sku)).toEqual(['MUG-1']);
  });

  it('run_stock_review says why nothing started while the reorder flow is not published', async () => {
    expect(await call('run_stock_review', {})).toEqual({ reviewed: 0, reorders: [], alreadyOpen: [], skipped: 'Flow tpl-reorder is not published' });
  });

  it('list_flows gives every published version; get_flow the draft as steps and connections; publish_flow the next version', async () => {
    const { flows } = await call('list_flows', {});
    expect(flows.find((f: { id: string }) => f.id === 'wait-flow')).toMatchObject({ publishedVersion: 1, versions: [1] });
    const flow = await call('get_flow', { flowId: 'approval-flow' });
    expect(flow.draft.steps).toContainEqual({ id: 'review', type: 'human.approval', label: 'Finance review' });
    expect(flow.draft.connections).toContainEqual({ from: 'review', to: 'done', branch: 'approved' });
    expect(flow.draft.problems).toEqual([]);
    expect(await call('publish_flow', { flowId: 'approval-flow' })).toEqual({ version: 2 });
    await expect(call('get_flow', { flowId: 'no-such-flow' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('chat answers through the read tools; propose_flow_change (see its own test)', async () => {
    // chat answers now (the assistant); test/integration/assistant covers it.
    expect((await call('chat', { text: 'what needs attention?' })).tool).toBe('needs_attention');
    // propose_flow_change drafts on a copy of the draft (nothing saved); one it cannot apply is invalid input.
    const answer = await call('propose_flow_change', { flowId: 'wait-flow', instruction: 'add an approval before pay' });
    expect(answer).toMatchObject({ flowId: 'wait-flow', problems: [], summary: expect.stringMatching(/Added "Approval" \(approval\)/) });
    expect((await call('get_flow', { flowId: 'wait-flow' })).draft.steps.map((s: { id: string }) => s.id)).not.toContain('approval');
    await expect(call('propose_flow_change', { flowId: 'wait-flow', instruction: 'add an approval' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});
