// MCP at /mcp driven by the official MCP SDK client: tools by role with schemas, structured results with a text summary,
// refusals as isError results, and the endpoint's own rules (credentials, Origin, methods).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startOrdersService, tokenFor } from '../orders/orders-support.js';

let t: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'approval-flow', graphs.approval);
  for (const role of ['viewer', 'approver', 'operator'] as const) tokens[role] = await tokenFor(t, role, `mcp-${role}`);
});
afterAll(async () => {
  await t?.close();
});

/** A connected official client acting with `token`. */
async function clientAs(token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const textOf = (result: { content?: unknown }) => ((result.content as { type: string; text: string }[])[0] ?? { text: '' }).text;

describe('MCP tools (contract section 11)', () => {
  it('tools/list shows each caller the tools its role may use, with input and output schemas, and never chat', async () => {
    const names = async (role: string) => (await (await clientAs(tokens[role])).listTools()).tools.map((tool) => tool.name).sort();
    const viewer = await names('viewer');
    expect(viewer).toEqual(['assess_order', 'find_orders', 'find_products', 'flow_impact', 'flow_stats', 'get_flow', 'get_order', 'list_flows', 'needs_attention', 'simulate_flow']);
    expect(await names('approver')).toEqual([...viewer, 'decide_approval'].sort());
    const operator = await names('operator');
    for (const tool of ['place_order', 'deliver_event', 'cancel_order', 'publish_flow', 'run_stock_review', 'propose_flow_change']) expect(operator).toContain(tool);
    expect(operator).not.toContain('chat');
    const { tools } = await (await clientAs(tokens.operator)).listTools();
    const place = tools.find((tool) => tool.name === 'place_order')!;
    expect(place.inputSchema.required).toEqual(expect.arrayContaining(['flowId', 'input']));
    expect(place.outputSchema?.properties).toHaveProperty('orderId');
    expect(place.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((tool) => tool.name === 'find_orders')!.annotations?.readOnlyHint).toBe(true);
  });

  it('the deliver_event tool names the payload fields the steps read (seller.responded: sellerId and decision)', async () => {
    const { tools } = await (await clientAs(tokens.operator)).listTools();
    const deliver = tools.find((tool) => tool.name === 'deliver_event')!;
    expect(deliver.description).toContain('seller.responded { "sellerId": "<the seller\'s id>", "decision": "accepted" | "rejected", "reason"?: "<why, when rejected>" }');
  });

  it('place_order, get_order and deliver_event drive an order to completion as structured results with a summary', async () => {
    const client = await clientAs(tokens.operator);
    const placed = await client.callTool({ name: 'place_order', arguments: { flowId: 'wait-flow', input: { model: 'b2c', title: 'Over MCP', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } } });
    expect(placed.isError).toBeFalsy();
    const { orderId, status } = placed.structuredContent as { orderId: string; status: string };
    expect(status).toBe('waiting');
    expect(textOf(placed)).toBe(`Order ${orderId} started; it is waiting.`);

    const read = await client.callTool({ name: 'get_order', arguments: { orderId } });
    const brief = read.structuredContent as { waits: { event: string; leadsTo: Record<string, string> }[]; steps: { nodeId: string }[] };
    expect(brief.waits).toMatchObject([{ event: 'payment.received', leadsTo: { received: 'done', timeout: 'late' } }]);
    expect(brief.steps.map((s) => s.nodeId)).toContain('start');
    expect(textOf(read)).toContain('it waits for event payment.received');

    const delivered = await client.callTool({ name: 'deliver_event', arguments: { orderId, event: 'payment.received' } });
    expect(delivered.structuredContent).toEqual({ delivered: true, nodeId: 'pay' });
    const after = await client.callTool({ name: 'get_order', arguments: { orderId } });
    expect((after.structuredContent as { status: string }).status).toBe('completed');

    const found = await client.callTool({ name: 'find_orders', arguments: { q: orderId } });
    const listed = (found.structuredContent as { count: number; totalUsd: number; orders: { id: string; total: number }[] });
    expect(listed.count).toBe(1);
    expect(listed.orders.map((o) => o.id)).toEqual([orderId]);
    // A USD order: its total in USD is its total.
    expect(listed.totalUsd).toBe(listed.orders[0].total);
  });

  it('decide_approval without nodeId decides the one open approval, recorded as the token', async () => {
    const operator = await clientAs(tokens.operator);
    const { orderId } = (await operator.callTool({ name: 'place_order', arguments: { flowId: 'approval-flow', input: { model: 'b2c', title: 'Needs review' } } }))
      .structuredContent as { orderId: string };
    const approver = await clientAs(tokens.approver);
    const decided = await approver.callTool({ name: 'decide_approval', arguments: { orderId, decision: 'approved', note: 'fine' } });
    expect(decided.structuredContent).toEqual({ ok: true, nodeId: 'review' });
    const state = (await t.call('GET', `/api/v1/orders/${orderId}`)).body;
    expect(state.status).toBe('completed');
    expect(state.nodes.review.output).toMatchObject({ decision: 'approved', by: 'token:mcp-approver', note: 'fine' });
    const again = await approver.callTool({ name: 'decide_approval', arguments: { orderId, decision: 'approved' } });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toBe('The order is not waiting for an approval');
  });

  it('a domain error, a role below the tool and invalid input are isError results with the message; nothing changes', async () => {
    const operator = await clientAs(tokens.operator);
    const unknown = await operator.callTool({ name: 'get_order', arguments: { orderId: 'ord_nothing' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('Order not found');
    const unpublished = await operator.callTool({ name: 'place_order', arguments: { flowId: 'no-such-flow', input: { model: 'b2c' } } });
    expect(unpublished.isError).toBe(true);
    expect(textOf(unpublished)).toBe('Flow no-such-flow has no published version');
    const invalid = await operator.callTool({ name: 'find_orders', arguments: { limit: 500, colour: 'red' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^Invalid input: /);
    expect(textOf(invalid)).toContain('limit');
    expect(textOf(invalid)).toContain('colour');
    const { orderId } = (await operator.callTool({ name: 'place_order', arguments: { flowId: 'wait-flow', input: { model: 'b2c' } } })).structuredContent as { orderId: string };
    const viewer = await clientAs(tokens.viewer);
    // Not listed to a viewer, and refused by the registry when called anyway: the role is checked before the input.
    const refused = await viewer.callTool({ name: 'cancel_order', arguments: { orderId, colour: 'red' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('This needs the operator role');
    expect((await t.call('GET', `/api/v1/orders/${orderId}`)).body.status).toBe('waiting');
  });
});

describe('the /mcp endpoint', () => {
  const post = (headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) =>
    fetch(new URL('/mcp', t.url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

  it('no credential is a 401, a wrong one a 401, a cross-site Origin a 403', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer svc_live_nothing' })).status).toBe(401);
    const cross = await post({ authorization: `Bearer ${tokens.viewer}`, origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toEqual({ error: 'Origin not allowed' });
    expect((await post({ authorization: `Bearer ${tokens.viewer}`, origin: new URL(t.url).origin })).status).toBe(200);
  });

  it('a body that is not JSON is a JSON-RPC parse error, never a 500', async () => {
    const res = await fetch(new URL('/mcp', t.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokens.viewer}` },
      body: '{"jsonrpc":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
  });

  it('is stateless: GET (a session stream) is 405', async () => {
    const res = await fetch(new URL('/mcp', t.url), { headers: { authorization: `Bearer ${tokens.viewer}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
  });
});
