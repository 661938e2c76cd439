// Held orders for agents (issue 33, contract sections 11 and 16): an A2A task following a held order is INPUT_REQUIRED and
// the reply `{ action, nodeId? }` runs resolve_hold as the caller; MCP lists resolve_hold to operators and runs it; get_order
// and needs_attention show the hold; the assistant proposes a retry or a rollback and runs it on confirmation.
import { TaskState } from '@a2a-js/sdk';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { e, eventually, n, publishFlow, startBody, startOrdersService, tokenFor } from '../orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';
import { artifactData, asTask, client10, dataMessage, send, statusText, textMessage } from '../a2a/a2a-support.js';

let t: TestService;
let rx: ScriptedReceiver;
const gateway = { down: true };
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  rx = await startScriptedReceiver();
  rx.script('/gw', () => (gateway.down ? { status: 503 } : { status: 200, body: { ok: true } }));
  // No retry after the first attempt: the step holds as soon as the gateway answers 503.
  await publishFlow(t, 'held-flow', {
    nodes: [
      n('start', 'trigger.api'),
      n('reserve', 'test.effect'),
      n('charge', 'http.call', { url: `${rx.url}/gw`, retry: { attempts: 0, backoff: '1s' }, onFailure: 'hold' }, 'Charge'),
      n('done', 'end', { outcome: 'completed' }),
    ],
    edges: [e('start', 'reserve'), e('reserve', 'charge'), e('charge', 'done')],
  });
  for (const role of ['viewer', 'operator'] as const) tokens[role] = await tokenFor(t, role, `held-${role}`);
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

const live = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;
const settled = (id: string, status: string) => eventually(async () => ((await live(id)).status === status ? live(id) : null), 10_000, `order ${status}`);

async function heldOrder(): Promise<string> {
  gateway.down = true;
  const res = await t.call('POST', '/api/v1/orders', startBody('held-flow'));
  expect(res.status, res.text).toBe(201);
  await eventually(async () => (await live(res.body.orderId)).holds.length > 0, 10_000, 'the hold');
  return res.body.orderId;
}

async function mcpAs(token: string): Promise<Client> {
  const client = new Client({ name: 'held-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const textOf = (result: { content?: unknown }) => ((result.content as { type: string; text: string }[])[0] ?? { text: '' }).text;

describe('A2A: a task following a held order', () => {
  it('is input-required, says how to reply, and the reply { action: "retry" } runs resolve_hold as the caller', async () => {
    gateway.down = true;
    const client = await client10(t, tokens.operator);
    const placed = asTask(await client.sendMessage(send(dataMessage({ skill: 'place_order', input: startBody('held-flow', { title: 'held over a2a' }) }))));
    const { orderId } = artifactData(placed, 'place_order');
    const held = await eventually(async () => {
      const task = await client.getTask({ tenant: '', id: placed.id });
      return task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ? task : null;
    }, 10_000, 'the task to need input');
    expect(statusText(held)).toBe(
      `Order ${orderId} waits for a retry or a rollback of the held step charge (Charge failed: The call failed: HTTP 503): reply { "action": "retry" | "rollback" }.`,
    );
    const data = held.status?.message?.parts.find((p) => p.content?.$case === 'data')?.content;
    expect(data?.$case === 'data' ? data.value : null).toMatchObject({ orderId, status: 'waiting', waits: [], holds: [{ nodeId: 'charge', title: 'Charge failed: The call failed: HTTP 503' }] });

    // A reply the tool refuses leaves the task waiting.
    const wrong = await client.sendMessage(send(dataMessage({ action: 'skip' }, { taskId: placed.id })));
    expect('status' in wrong).toBe(false);
    expect(JSON.stringify(wrong)).toContain('Refused');
    expect((await client.getTask({ tenant: '', id: placed.id })).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    gateway.down = false;
    const done = asTask(await client.sendMessage(send(dataMessage({ action: 'retry', note: 'over A2A' }, { taskId: placed.id }))));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const order = await live(orderId);
    expect(order.status).toBe('completed');
    expect(order.timeline.find((x: any) => x.kind === 'node.hold_retried').message).toBe('Charge: retry by token:held-operator: over A2A');
  });

  it('the reply { action: "rollback", nodeId } rolls the order back; the task ends as the order did', async () => {
    gateway.down = true;
    const client = await client10(t, tokens.operator);
    const placed = asTask(await client.sendMessage(send(dataMessage({ skill: 'place_order', input: startBody('held-flow', { title: 'rolled over a2a' }) }))));
    const { orderId } = artifactData(placed, 'place_order');
    await eventually(async () => (await client.getTask({ tenant: '', id: placed.id })).status?.state === TaskState.TASK_STATE_INPUT_REQUIRED, 10_000, 'input required');
    const done = asTask(await client.sendMessage(send(dataMessage({ action: 'rollback', nodeId: 'charge' }, { taskId: placed.id }))));
    // rolled_back is TASK_STATE_CANCELED (spec "Order status to A2A task state").
    expect(done.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await live(orderId)).status).toBe('rolled_back');
  });
});

describe('MCP: resolve_hold', () => {
  it('is listed to operators (not viewers); get_order and needs_attention show the hold; it resolves the order\'s one held step', async () => {
    const id = await heldOrder();
    const viewer = await mcpAs(tokens.viewer);
    expect((await viewer.listTools()).tools.map((tool) => tool.name)).not.toContain('resolve_hold');
    const refused = await viewer.callTool({ name: 'resolve_hold', arguments: { orderId: id, action: 'retry' } });
    expect(refused.isError).toBe(true);

    const operator = await mcpAs(tokens.operator);
    const tool = (await operator.listTools()).tools.find((x) => x.name === 'resolve_hold')!;
    expect(tool.inputSchema.required).toEqual(expect.arrayContaining(['orderId', 'action']));
    expect(tool.annotations?.readOnlyHint).toBe(false);

    const brief = await operator.callTool({ name: 'get_order', arguments: { orderId: id } });
    expect((brief.structuredContent as any).holds).toEqual([expect.objectContaining({ nodeId: 'charge', label: 'Charge', title: 'Charge failed: The call failed: HTTP 503' })]);
    expect(textOf(brief)).toContain('Order');
    const attention = await operator.callTool({ name: 'needs_attention', arguments: {} });
    expect((attention.structuredContent as any).held.map((r: any) => r.id)).toContain(id);

    const resolved = await operator.callTool({ name: 'resolve_hold', arguments: { orderId: id, action: 'rollback', note: 'From MCP' } });
    expect(resolved.isError).toBeFalsy();
    expect(resolved.structuredContent).toEqual({ ok: true, nodeId: 'charge' });
    expect(textOf(resolved)).toBe('Resolved the hold at charge.');
    const rolled = await settled(id, 'rolled_back');
    expect(rolled.nodes.reserve.status).toBe('rolled_back');

    // Nothing is held any more: without nodeId there is none to pick; with it, the REST refusal.
    const none = await operator.callTool({ name: 'resolve_hold', arguments: { orderId: id, action: 'retry' } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain('The order has no held step');
    const named = await operator.callTool({ name: 'resolve_hold', arguments: { orderId: id, nodeId: 'charge', action: 'retry' } });
    expect(named.isError).toBe(true);
    expect(textOf(named)).toContain('That node is not held');
  });
});

describe('the assistant (chat)', () => {
  it('"retry <order>" proposes resolve_hold for its held step and runs it on { confirm: true }; an order with no hold is said so', async () => {
    const id = await heldOrder();
    const client = await client10(t, tokens.operator);
    const contextId = 'held-chat';
    const proposed = asTask(await client.sendMessage(send(textMessage(`retry order ${id}`, { contextId }))));
    expect(proposed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(artifactData(proposed, 'chat').proposal).toEqual({ skill: 'resolve_hold', input: { orderId: id, nodeId: 'charge', action: 'retry' } });
    expect(statusText(proposed)).toContain(`Retry Charge on order ${id} (Charge failed: The call failed: HTTP 503)?`);
    gateway.down = false;
    const done = asTask(await client.sendMessage(send(dataMessage({ confirm: true }, { taskId: proposed.id, contextId }))));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await settled(id, 'completed');

    const none = asTask(await client.sendMessage(send(textMessage(`roll back ${id}`, { contextId }))));
    expect(none.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(statusText(none)).toBe(`Order ${id} has no held step (it is completed).`);
  });
});
