// A2A push (spec "Push notifications", "A2A push"): payload shapes per version, sender authentication, retries by the
// test clock, failed kept 7 days, deleting a config drops what is queued, the same status never pushed twice.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { TestService } from '../../support/test-service.js';
import { asTask, client03, client10, dataMessage, placeOrder, rpc, send, startA2aService } from './a2a-support.js';
import { startPushReceiver, type PushReceiver } from './push-receiver.js';

const DAY = 24 * 3_600_000;
let t: TestService;
let receiver: PushReceiver;

beforeAll(async () => {
  t = await startA2aService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  receiver = await startPushReceiver();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer(200);
});

/** Lets the first attempts queued so far finish (the test clock's advance waits for them). */
const settle = () => t.advance(0);
const at = (path: string) => receiver.received.filter((r) => r.path === path);
const stateOf = (body: any) => body.statusUpdate?.status?.state ?? body.status?.state;
const textOf = (body: any) => JSON.stringify((body.statusUpdate?.status ?? body.status)?.message?.parts?.filter((p: any) => 'text' in p || p.kind === 'text'));

describe('payloads and sender authentication', () => {
  it('a config registered over 1.0 gets StreamResponse statusUpdate JSON as application/a2a+json with Authorization: <scheme> <credentials>', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('approval-flow')))));
    await client.createTaskPushNotificationConfig({ tenant: '', id: 'v1', taskId: placed.id, url: `${receiver.url}/v1`, token: '', authentication: { scheme: 'Bearer', credentials: 'receiver-secret' } });
    await client.sendMessage(send(dataMessage({ decision: 'approved' }, { taskId: placed.id })));
    await settle();
    const got = at('/v1');
    expect(got.length).toBeGreaterThan(0);
    const last = got[got.length - 1];
    expect(last.headers['content-type']).toBe('application/a2a+json');
    expect(last.headers.authorization).toBe('Bearer receiver-secret');
    expect(last.body.statusUpdate).toMatchObject({ taskId: placed.id, contextId: placed.contextId, status: { state: 'TASK_STATE_COMPLETED' } });
  });

  it('a config registered over 0.3 gets the whole task (kind: task) with X-A2A-Notification-Token', async () => {
    const legacy = client03(t);
    const placed = asTask(await legacy.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
    await legacy.createTaskPushNotificationConfig({ tenant: '', id: 'v03', taskId: placed.id, url: `${receiver.url}/v03`, token: 'tok-123', authentication: undefined });
    await legacy.sendMessage(send(dataMessage({ event: 'payment.received' }, { taskId: placed.id })));
    await settle();
    const got = at('/v03');
    expect(got.length).toBeGreaterThan(0);
    const last = got[got.length - 1];
    expect(last.headers['x-a2a-notification-token']).toBe('tok-123');
    expect(last.headers.authorization).toBeUndefined();
    expect(last.body).toMatchObject({ kind: 'task', id: placed.id, status: { state: 'completed' } });
  });

  it('a config sent inline with SendMessage hears the creating request: the task, its artifact, each new status', async () => {
    const client = await client10(t);
    const config = { tenant: '', id: 'inline', taskId: '', url: `${receiver.url}/inline`, token: 'inline-token', authentication: undefined };
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('approval-flow')), { acceptedOutputModes: [], taskPushNotificationConfig: config, historyLength: undefined, returnImmediately: false })));
    await settle();
    const got = at('/inline');
    expect(got.some((r) => r.body.artifactUpdate?.artifact?.name === 'place_order')).toBe(true);
    expect(stateOf(got[got.length - 1].body)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(got.every((r) => r.headers['x-a2a-notification-token'] === 'inline-token')).toBe(true);
    expect(placed.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });
});

describe('delivery', () => {
  it('a failing receiver is retried 10, 20, 40, 80, 160 s later by the test clock, kept as failed, and dropped after 7 days', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
    await client.createTaskPushNotificationConfig({ tenant: '', id: 'failing', taskId: placed.id, url: `${receiver.url}/failing`, token: '', authentication: undefined });
    receiver.answer(500);
    await client.cancelTask({ tenant: '', id: placed.id, metadata: undefined });
    await settle();
    expect(at('/failing')).toHaveLength(1);
    const rows = async () => (await t.service.ctx.db.query("SELECT status, attempts FROM a2a_push_deliveries WHERE task_id = $1 AND config_id = 'failing'", [placed.id])).rows;
    for (const [delay, attempts] of [[10_000, 2], [20_000, 3], [40_000, 4], [80_000, 5], [160_000, 6]] as const) {
      await t.advance(delay - 1_000);
      expect(at('/failing')).toHaveLength(attempts - 1);
      await t.advance(1_000);
      expect(at('/failing')).toHaveLength(attempts);
    }
    expect(await rows()).toEqual([{ status: 'failed', attempts: 6 }]);
    await t.advance(600_000);
    expect(at('/failing')).toHaveLength(6);
    await t.advance(7 * DAY);
    expect(await rows()).toEqual([]);
  });

  it('deleting a config drops its queued notifications: no retry reaches the receiver', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
    await client.createTaskPushNotificationConfig({ tenant: '', id: 'dropped', taskId: placed.id, url: `${receiver.url}/dropped`, token: '', authentication: undefined });
    receiver.answer(503);
    await client.cancelTask({ tenant: '', id: placed.id, metadata: undefined });
    await settle();
    expect(at('/dropped')).toHaveLength(1);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: placed.id, id: 'dropped' });
    const { rows } = await t.service.ctx.db.query('SELECT count(*)::int AS n FROM a2a_push_deliveries WHERE task_id = $1', [placed.id]);
    expect(rows[0].n).toBe(0);
    receiver.answer(200);
    await t.advance(400_000);
    expect(at('/dropped')).toHaveLength(1);
    // Deleting again is not an error (idempotent).
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: placed.id, id: 'dropped' });
  });

  it('the same status (state and text) is never pushed twice in a row: re-reads, sweeps and repeated changes add nothing', async () => {
    const client = await client10(t);
    const config = { tenant: '', id: 'once', taskId: '', url: `${receiver.url}/once`, token: '', authentication: undefined };
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')), { acceptedOutputModes: [], taskPushNotificationConfig: config, historyLength: undefined, returnImmediately: false })));
    await settle();
    const before = at('/once').length;
    for (let i = 0; i < 3; i++) await client.getTask({ tenant: '', id: placed.id });
    await t.advance(60_000);
    expect(at('/once')).toHaveLength(before);
    // The order is changed from outside A2A (REST): the task hears it once, without a request following it.
    const { orderId } = placed.metadata as { orderId: string };
    await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'payment.received' });
    await settle();
    expect(at('/once').some((r) => stateOf(r.body) === 'TASK_STATE_COMPLETED')).toBe(true);
    await t.advance(60_000);
    const statuses = at('/once').filter((r) => r.body.statusUpdate).map((r) => `${stateOf(r.body)}|${textOf(r.body)}`);
    for (let i = 1; i < statuses.length; i++) expect(statuses[i]).not.toBe(statuses[i - 1]);
    expect(statuses.filter((s) => s.startsWith('TASK_STATE_COMPLETED'))).toHaveLength(1);
  });
});

describe('config rules', () => {
  it('at most 5 URLs per task; http only for loopback hosts; private addresses refused: invalid-request errors', async () => {
    const client = await client10(t);
    const placed = asTask(await client.sendMessage(send(dataMessage(placeOrder('wait-flow')))));
    for (let i = 0; i < 5; i++) await client.createTaskPushNotificationConfig({ tenant: '', id: `c${i}`, taskId: placed.id, url: `${receiver.url}/c${i}`, token: '', authentication: undefined });
    const sixth = await rpc(t, 'CreateTaskPushNotificationConfig', { taskId: placed.id, url: `${receiver.url}/c6` }, { version: '1.0' });
    expect(sixth.body.error.code).toBe(-32600);
    // Replacing an existing id is not a sixth.
    await client.createTaskPushNotificationConfig({ tenant: '', id: 'c0', taskId: placed.id, url: `${receiver.url}/c0b`, token: '', authentication: undefined });
    const list = await client.listTaskPushNotificationConfig({ tenant: '', taskId: placed.id, pageSize: 0, pageToken: '' });
    expect(list.configs).toHaveLength(5);
    for (const url of ['http://example.com/hook', 'https://10.0.0.8/hook', 'https://[fd00::1]/hook', 'ftp://example.com/x', 'https://user:pw@example.com/x']) {
      const bad = await rpc(t, 'CreateTaskPushNotificationConfig', { taskId: placed.id, id: 'c1', url }, { version: '1.0' });
      expect(bad.body.error?.code, url).toBe(-32600);
    }
  });
});
