// The official @a2a-js/sdk clients (1.0 ClientFactory, 0.3 JSON-RPC transport) drive the service: place, follow, reply, stream, cancel, read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import type { TestService } from '../../support/test-service.js';
import { artifactData, asTask, client03, client10, dataMessage, placeOrder, send, startA2aService, statusText, textMessage } from './a2a-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startA2aService();
});
afterAll(async () => {
  await t?.close();
});

describe('A2A 1.0 client (ClientFactory through the agent card)', () => {
  it('places an order, follows it to INPUT_REQUIRED, approves by replying, and the task completes', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('approval-flow')))));
    expect(placed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { orderId } = artifactData(placed, 'place_order');
    expect(orderId).toMatch(/^ord_/);
    expect(statusText(placed)).toContain('approval at review');
    expect(placed.metadata).toMatchObject({ skill: 'place_order', orderId });

    const replied = asTask(await client.sendMessage(send(dataMessage({ decision: 'approved', note: 'ok' }, { taskId: placed.id, contextId: placed.contextId }))));
    expect(replied.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const order = await t.call('GET', `/api/v1/orders/${orderId}`);
    expect(order.body.status).toBe('completed');
    expect(order.body.nodes.review.output).toMatchObject({ decision: 'approved', by: 'api' });

    const read = await client.getTask({ tenant: '', id: placed.id });
    expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a typed read completes with one artifact named after the tool holding its output', async () => {
    const client = await client10(t);
    const task = asTask(await client.sendMessage(send(dataMessage({ skill: 'list_flows', input: {} }))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0].name).toBe('list_flows');
    expect(artifactData(task, 'list_flows').flows.map((f: { id: string }) => f.id)).toContain('approval-flow');
  });

  it('streams a placed order: the task first, then status updates ending in INPUT_REQUIRED; a reply on the event wait streams to completion', async () => {
    const client = await client10(t);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send(dataMessage(placeOrder('wait-flow'))))) events.push(event);
    expect(events[0].payload?.$case).toBe('task');
    const last = events[events.length - 1].payload;
    expect(last?.$case).toBe('statusUpdate');
    if (last?.$case !== 'statusUpdate') throw new Error('no status');
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(events.some((e) => e.payload?.$case === 'artifactUpdate')).toBe(true);
    const taskId = last.value.taskId;

    const more: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send(dataMessage({ event: 'payment.received' }, { taskId })))) more.push(event);
    const end = more[more.length - 1].payload;
    expect(end?.$case === 'statusUpdate' && end.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('cancels a task following a waiting order: the order is cancelled with a reason naming A2A, then the task', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
    const { orderId } = artifactData(placed, 'place_order');
    const cancelled = await client.cancelTask({ tenant: '', id: placed.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const order = await t.call('GET', `/api/v1/orders/${orderId}`);
    expect(order.body.status).toBe('cancelled');
    expect(order.body.reason).toContain('over A2A');
    // A finished task, a cancelled one included, is not cancelable again (contract section 11: -32002).
    await expect(client.cancelTask({ tenant: '', id: placed.id, metadata: undefined })).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
  });

  it('a text-only message goes to chat, which answers in plain sentences (COMPLETED with the chat artifact)', async () => {
    const client = await client10(t);
    const task = asTask(await client.sendMessage(send(textMessage('What needs attention?'))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(statusText(task)).toMatch(/approvals? (is|are) open|No approval is open/);
    expect(artifactData(task, 'chat').tool).toBe('needs_attention');
  });
});

describe('A2A 0.3 transport', () => {
  it('places an order, replies with an approval, and reads the task back in both versions (tasks are shared)', async () => {
    const legacy = client03(t);
    const placed = asTask(await legacy.sendMessage(send(dataMessage(placeOrder('approval-flow')))));
    expect(placed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const replied = asTask(await legacy.sendMessage(send(dataMessage({ decision: 'rejected' }, { taskId: placed.id, contextId: placed.contextId }))));
    // declined -> REJECTED (spec table)
    expect(replied.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    const v1 = await client10(t);
    expect((await v1.getTask({ tenant: '', id: placed.id })).status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect((await legacy.getTask({ tenant: '', id: placed.id })).status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    const listed = await v1.listTasks({ tenant: '', contextId: placed.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map((x) => x.id)).toEqual([placed.id]);
  });

  it('streams with message/stream and cancels with tasks/cancel', async () => {
    const legacy = client03(t);
    const events: StreamResponse[] = [];
    for await (const event of legacy.sendMessageStream(send(dataMessage(placeOrder('wait-flow'))))) events.push(event);
    const last = events[events.length - 1].payload;
    if (last?.$case !== 'statusUpdate') throw new Error(`unexpected ${last?.$case}`);
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const cancelled = await legacy.cancelTask({ tenant: '', id: last.value.taskId, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});
