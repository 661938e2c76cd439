// The assistant over A2A with the official SDK client: ask, get a proposal, confirm, see the effect; a follow-up remembers
// the order; { confirm: false } drops it; a viewer's confirmation of a write is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import type { TestService } from '../../support/test-service.js';
import { artifactData, asTask, client10, dataMessage, send, startA2aService, statusText, textMessage, tokenFor } from '../a2a/a2a-support.js';
import { graphs, publishFlow, startBody } from '../orders/orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startA2aService();
  await publishFlow(t, 'chat-wait', graphs.eventWait);
  await publishFlow(t, 'chat-approval', graphs.approval);
});
afterAll(async () => {
  await t?.close();
});

const order = async (flowId: string) => (await t.call('POST', '/api/v1/orders', startBody(flowId))).body.orderId as string;
const reply = (taskId: string, contextId: string, data: Record<string, unknown>) => send(dataMessage(data, { taskId, contextId }));

describe('chat over A2A', () => {
  it('asks about an order, then "cancel it" proposes; { confirm: true } cancels it as the caller', async () => {
    const client = await client10(t, await tokenFor(t, 'operator', 'chat-operator'));
    const id = await order('chat-wait');
    const contextId = randomUUID();
    const asked = asTask(await client.sendMessage(send(textMessage(`why is ${id} waiting?`, { contextId }))));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(statusText(asked)).toContain('waits for the event payment.received');

    const proposed = asTask(await client.sendMessage(send(textMessage('cancel it', { contextId }))));
    expect(proposed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(artifactData(proposed, 'chat').proposal).toEqual({ skill: 'cancel_order', input: { orderId: id } });
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');

    const done = asTask(await client.sendMessage(reply(proposed.id, contextId, { confirm: true })));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const after = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect([after.status, after.reason]).toEqual(['cancelled', 'Cancelled by an agent (token:chat-operator)']);
  });

  it('{ confirm: false } drops the proposal and ends the task; nothing changes', async () => {
    const client = await client10(t, await tokenFor(t, 'approver', 'chat-approver'));
    const id = await order('chat-approval');
    const proposed = asTask(await client.sendMessage(send(textMessage(`approve ${id}`))));
    expect(proposed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const dropped = asTask(await client.sendMessage(reply(proposed.id, proposed.contextId, { confirm: false })));
    expect(dropped.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
  });

  it('a viewer may ask and be offered the write, but the confirmation is refused by the role check', async () => {
    const client = await client10(t, await tokenFor(t, 'viewer', 'chat-viewer'));
    const id = await order('chat-approval');
    const proposed = asTask(await client.sendMessage(send(textMessage(`approve order ${id}`))));
    expect(statusText(proposed)).toContain('This needs the approver role');
    const refused = asTask(await client.sendMessage(reply(proposed.id, proposed.contextId, { confirm: true })));
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(refused)).toContain('approver');
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
  });
});
