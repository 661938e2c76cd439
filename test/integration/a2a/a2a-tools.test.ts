// A2A skills as the caller's role allows (contract section 11): role and input refusals REJECTED, domain errors FAILED,
// place_order once per messageId, replies as the caller, a reply on a task waiting for nothing refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { roleAtLeast, type Role } from '../../../src/auth/roles.js';
import type { TestService } from '../../support/test-service.js';
import { countOrders, e, n, publishFlow } from '../orders/orders-support.js';
import { artifactData, asTask, client10, dataMessage, placeOrder, rpc, send, startA2aService, statusText, tokenFor } from './a2a-support.js';

let t: TestService;
const tokens: Partial<Record<Role, string>> = {};
beforeAll(async () => {
  t = await startA2aService();
  for (const role of ['viewer', 'approver', 'operator'] as const) tokens[role] = await tokenFor(t, role, `a2a-${role}`);
});
afterAll(async () => {
  await t?.close();
});

describe('role checks per tool', () => {
  it('every skill below the caller’s role ends REJECTED naming the role needed; at or above it the role is never the refusal', async () => {
    const tools = t.service.ctx.operations.list().filter((op) => op.audience === 'agents');
    expect(tools.length).toBe(21);
    for (const role of ['viewer', 'approver', 'operator'] as const) {
      const client = await client10(t, tokens[role]);
      for (const op of tools) {
        if (op.name === 'chat') continue;
        const input = op.name === 'place_order' ? placeOrder('done-flow').input : (op.example ?? {});
        const task = asTask(await client.sendMessage(send(dataMessage({ skill: op.name, input }))));
        if (roleAtLeast(role, op.role)) {
          expect(statusText(task), `${role} ${op.name}`).not.toMatch(/needs the \w+ role/);
        } else {
          expect(task.status?.state, `${role} ${op.name}`).toBe(TaskState.TASK_STATE_REJECTED);
          expect(statusText(task), `${role} ${op.name}`).toBe(`This needs the ${op.role} role`);
        }
      }
    }
  });

  it('a viewer’s refused place_order starts nothing', async () => {
    const title = `viewer-${randomUUID()}`;
    const client = await client10(t, tokens.viewer);
    await client.sendMessage(send(dataMessage(placeOrder('done-flow', title))));
    expect(await countOrders(t, 'title = $1', [title])).toBe(0);
  });
});

describe('refusals', () => {
  it('invalid input ends REJECTED listing the fields, with a data part { error, issues }', async () => {
    const client = await client10(t);
    const task = asTask(await client.sendMessage(send(dataMessage({ skill: 'find_orders', input: { limit: 0, colour: 'red' } }))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(task)).toContain('limit');
    const data = task.status?.message?.parts.find((p) => p.content?.$case === 'data')?.content;
    expect(data?.$case === 'data' && data.value).toMatchObject({ error: 'Invalid input', issues: expect.arrayContaining([expect.objectContaining({ path: 'limit' })]) });
  });

  it('a domain error ends FAILED with the REST message; an unknown skill or a malformed request ends REJECTED', async () => {
    const client = await client10(t);
    const missing = asTask(await client.sendMessage(send(dataMessage({ skill: 'get_order', input: { orderId: 'ord_missing' } }))));
    expect([missing.status?.state, statusText(missing)]).toEqual([TaskState.TASK_STATE_FAILED, 'Order not found']);
    const unknown = asTask(await client.sendMessage(send(dataMessage({ skill: 'listOrders', input: {} }))));
    expect(unknown.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(unknown)).toContain('Unknown skill listOrders');
    const malformed = asTask(await client.sendMessage(send(dataMessage({ tool: 'get_order' }))));
    expect(malformed.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
  });
});

describe('place_order once per messageId', () => {
  it('the same messageId with the same order follows the first order; with another order it is refused', async () => {
    const client = await client10(t, tokens.operator);
    const title = `once-${randomUUID()}`;
    const request = placeOrder('wait-flow', title);
    const messageId = randomUUID();
    const first = asTask(await client.sendMessage(send(dataMessage(request, { messageId }))));
    const again = asTask(await client.sendMessage(send(dataMessage(request, { messageId }))));
    expect(artifactData(again, 'place_order').orderId).toBe(artifactData(first, 'place_order').orderId);
    expect(await countOrders(t, 'title = $1', [title])).toBe(1);
    const other = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow', `${title}-b`), { messageId }))));
    expect(other.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(other)).toContain('already placed a different order');
    expect(await countOrders(t, 'title = $1', [`${title}-b`])).toBe(0);
    // Another caller's messageId is its own.
    const workspace = await client10(t);
    const theirs = asTask(await workspace.sendMessage(send(dataMessage(request, { messageId }))));
    expect(artifactData(theirs, 'place_order').orderId).not.toBe(artifactData(first, 'place_order').orderId);
  });
});

describe('replies', () => {
  it('a reply runs as the caller: an approver token decides (recorded as token:<name>); a viewer’s reply is refused and the task still waits', async () => {
    const operator = await client10(t, tokens.operator);
    const placed = asTask(await operator.sendMessage(send(dataMessage(placeOrder('approval-flow')))));
    const { orderId } = artifactData(placed, 'place_order');
    // The viewer cannot read the operator token's task at all: tasks are per caller.
    expect((await rpc(t, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: placed.id, parts: [{ data: { decision: 'approved' } }] } }, { version: '1.0', token: tokens.viewer })).body.error.code).toBe(-32001);
    // Role checks on replies: the operator's task, answered by the operator token as an approver would be.
    const refused = await operator.sendMessage(send(dataMessage({ decision: 'maybe' }, { taskId: placed.id })));
    expect('status' in refused).toBe(false);
    expect(JSON.stringify(refused)).toContain('Refused');
    expect((await operator.getTask({ tenant: '', id: placed.id })).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = asTask(await operator.sendMessage(send(dataMessage({ decision: 'approved' }, { taskId: placed.id }))));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await t.call('GET', `/api/v1/orders/${orderId}`)).body.nodes.review.output.by).toBe('token:a2a-operator');
  });

  it('an approver token can place nothing but can decide through decide_approval', async () => {
    const approver = await client10(t, tokens.approver);
    const operator = await client10(t, tokens.operator);
    const placed = asTask(await operator.sendMessage(send(dataMessage(placeOrder('approval-flow')))));
    const { orderId } = artifactData(placed, 'place_order');
    const decided = asTask(await approver.sendMessage(send(dataMessage({ skill: 'decide_approval', input: { orderId, decision: 'approved' } }))));
    expect(decided.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await t.call('GET', `/api/v1/orders/${orderId}`)).body.nodes.review.output.by).toBe('token:a2a-approver');
  });

  it('a reply the wait does not take is refused (an event for an approval wait), the task unchanged; a reply to a finished task is refused', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('approval-flow')))));
    const wrong = await client.sendMessage(send(dataMessage({ event: 'payment.received' }, { taskId: placed.id })));
    expect('status' in wrong).toBe(false);
    expect(JSON.stringify(wrong)).toContain('nothing waits for payment.received');
    const { orderId } = artifactData(placed, 'place_order');
    // The order finishes from outside A2A: the task reads it live and then takes no reply.
    await t.call('POST', `/api/v1/orders/${orderId}/approvals/review`, { decision: 'approved' });
    expect((await client.getTask({ tenant: '', id: placed.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const late = await rpc(t, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: placed.id, parts: [{ data: { decision: 'approved' } }] } }, { version: '1.0' });
    expect(late.body.error.code).toBe(-32004);
  });

  it('a reply to a typed task that waits for nothing is refused', async () => {
    const client = await client10(t);
    const task = asTask(await client.sendMessage(send(dataMessage({ skill: 'needs_attention', input: {} }))));
    const res = await rpc(t, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: task.id, parts: [{ data: { decision: 'approved' } }] } }, { version: '1.0' });
    expect(res.body.error.code).toBe(-32004);
  });
});

describe('following', () => {
  it('once its request has ended (here a follow window of 0), GetTask and ListTasks read the order live', async () => {
    const short = await startA2aService({ start: { a2a: { followMs: 0 } } });
    try {
      const client = await client10(short);
      const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
      const { orderId } = artifactData(placed, 'place_order');
      await short.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'payment.received' });
      expect((await client.getTask({ tenant: '', id: placed.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const listed = await client.listTasks({ tenant: '', contextId: placed.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined });
      expect(listed.tasks[0].status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    } finally {
      await short.close();
    }
  });
});

describe('what a reply to an event wait must carry', () => {
  it('an order waiting for seller.responded tells the agent the payload fields the step reads (sellerId, decision), and so does the deliver_event skill', async () => {
    await publishFlow(t, 'seller-wait-flow', {
      nodes: [n('start', 'trigger.api'), n('sellers', 'wait.event', { event: 'seller.responded', timeout: '3d' }), n('done', 'end', { outcome: 'completed' }), n('late', 'end', { outcome: 'cancelled', reason: 'No answer' })],
      edges: [e('start', 'sellers'), e('sellers', 'done', 'received'), e('sellers', 'late', 'timeout')],
    });
    const client = await client10(t, tokens.operator);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('seller-wait-flow')))));
    expect(placed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(placed)).toContain(
      'waits for the event seller.responded: reply { "event": "seller.responded", "payload": { "sellerId": "<the seller\'s id>", "decision": "accepted" | "rejected", "reason"?: "<why, when rejected>" } }',
    );
    // An event no step declares keeps the short reply.
    const plain = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
    expect(statusText(plain)).toContain('waits for the event payment.received: reply { "event": "payment.received" }');
    const card = await (await fetch(`${t.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).json();
    const skill = card.skills.find((s: { id: string }) => s.id === 'deliver_event');
    expect(skill.description).toContain('seller.responded { "sellerId": "<the seller\'s id>", "decision": "accepted" | "rejected"');
  });
});

describe('task store retention (spec: finished tasks deleted after 90 days)', () => {
  it('a finished task goes 90 days after its last change even when its caller never sends again; a younger one stays', async () => {
    const DAY = 86_400_000;
    // The workspace password as the caller: an API token would itself expire at 90 days. (Last in this file: the clock moves.)
    const client = await client10(t);
    const old = asTask(await client.sendMessage(send(dataMessage({ skill: 'find_orders', input: { limit: 1 } }))));
    expect(old.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await t.advance(60 * DAY);
    const young = asTask(await client.sendMessage(send(dataMessage({ skill: 'find_orders', input: { limit: 1 } }))));
    expect((await client.getTask({ tenant: '', id: old.id })).id).toBe(old.id); // 60 days: kept
    await t.advance(31 * DAY); // the sweep runs after each advance, as every 30 s; nothing is sent by the caller
    await expect(client.getTask({ tenant: '', id: old.id })).rejects.toThrow(/not found/i);
    expect((await client.getTask({ tenant: '', id: young.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const { rows } = await t.service.ctx.db.query('SELECT count(*)::int AS n FROM a2a_tasks WHERE id = $1', [old.id]);
    expect(rows[0].n).toBe(0);
  });
});
