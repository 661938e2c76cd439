// A2A TCK (a2aproject/a2a-tck 1.0-dev) JSON-RPC must-level requirements, ported: each test names its TCK id.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLegacyAgentCard, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import type { TestService } from '../../support/test-service.js';
import { openStream, placeOrder, rpc, sseEvents, startA2aService, tokenFor } from './a2a-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startA2aService();
});
afterAll(async () => {
  await t?.close();
});

const V1 = { version: '1.0' };
const msg = (value: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: value }], ...extra } });
const msg03 = (value: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: value }], ...extra } });
const read = { skill: 'list_flows', input: {} };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function card(version?: string) {
  const res = await fetch(`${t.url}/.well-known/agent-card.json`, { headers: version ? { 'a2a-version': version } : {} });
  return { res, body: (await res.json()) as any };
}

describe('agent card', () => {
  it('CARD-DISC-001: public at /.well-known/agent-card.json, cached 5 minutes, varying by A2A-Version', async () => {
    const { res } = await card('1.0');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('vary')).toContain('A2A-Version');
  });

  it('CARD-STRUCT-001, CARD-PROTO-001/002: the 1.0 card has the required fields, a JSONRPC interface at /a2a for 1.0 and 0.3, streaming and push', async () => {
    const { body } = await card('1.0');
    for (const field of ['name', 'description', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills', 'supportedInterfaces']) expect(body, field).toHaveProperty(field);
    expect(body.supportedInterfaces).toEqual([
      { url: `${t.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${t.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(body.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(body.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('Bearer');
  });

  it('the skills are the agents’ tools of contract section 11', async () => {
    const { body } = await card('1.0');
    const tools = t.service.ctx.operations.list().filter((op) => op.audience === 'agents').map((op) => op.name).sort();
    expect(body.skills.map((s: { id: string }) => s.id).sort()).toEqual(tools);
    expect(tools).toContain('place_order');
  });

  it('CARD-EXT-002: the card requires no extension', async () => {
    const { body } = await card('1.0');
    expect((body.capabilities.extensions ?? []).filter((e: { required?: boolean }) => e.required)).toEqual([]);
  });

  it('without A2A-Version the 0.3 card: top-level url and protocolVersion, OpenAPI-style security, the 1.0 interfaces embedded', async () => {
    const { body } = await card();
    // A dual card (0.3 fields plus the 1.0 interfaces), as the SDK's own 0.3 card router serves it: the
    // SDK's card resolvers read it as 1.0, its 0.3 parser as 0.3.
    expect(isLegacyAgentCard({ ...body, supportedInterfaces: undefined })).toBe(true);
    expect(body).toMatchObject({ url: `${t.url}/a2a`, protocolVersion: '0.3.0', preferredTransport: 'JSONRPC', securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } });
    expect(body.supportedInterfaces).toHaveLength(2);
    expect(parseLegacyAgentCard(body).skills.length).toBe(body.skills.length);
  });
});

describe('JSON-RPC binding', () => {
  it('JSONRPC-FMT-001/002: a JSON-RPC 2.0 response with the request id, as application/json', async () => {
    const res = await rpc(t, 'SendMessage', msg(read), { ...V1, id: 'req-7' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'req-7' });
    expect(res.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('JSONRPC-ERR-001: parse error -32700, invalid request -32600, unknown method -32601, invalid params -32602', async () => {
    const post = (body: string) =>
      fetch(`${t.url}/a2a`, { method: 'POST', headers: { authorization: 'Bearer test-workspace-password-0123', 'content-type': 'application/json', 'a2a-version': '1.0' }, body }).then((r) => r.json() as Promise<any>);
    expect((await post('{not json')).error.code).toBe(-32700);
    expect((await post(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'GetTask' }))).error.code).toBe(-32600);
    expect((await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'GetTask' }]))).error.code).toBe(-32600);
    expect((await rpc(t, 'NoSuchMethod', {}, V1)).body.error.code).toBe(-32601);
    expect((await rpc(t, 'GetTask', 'not an object', V1)).body.error.code).toBe(-32602);
  });

  it('JSONRPC-ERR-002/003: A2A errors use -32001..-32099 with a google.rpc.ErrorInfo in data', async () => {
    const res = await rpc(t, 'GetTask', { id: randomUUID() }, V1);
    expect(res.body.error.code).toBe(-32001);
    expect(res.body.error.data[0]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' });
  });

  it('JSONRPC-SSE-001/002: SendStreamingMessage answers text/event-stream; each event is a JSON-RPC response with the request id', async () => {
    const res = await rpc(t, 'SendStreamingMessage', msg(read), { ...V1, id: 42 });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(res.text);
    expect(events.length).toBeGreaterThan(1);
    for (const e of events) expect(e).toMatchObject({ jsonrpc: '2.0', id: 42 });
  });

  it('405 for any method but POST on /a2a (before any credential check)', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${t.url}/a2a`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('an Origin that is not an http or https origin gets 403; an https origin is served', async () => {
    for (const origin of ['null', 'chrome-extension://abc', 'file://']) expect((await rpc(t, 'GetTask', { id: 'x' }, { ...V1, headers: { origin } })).status, origin).toBe(403);
    expect((await rpc(t, 'GetTask', { id: 'x' }, { ...V1, headers: { origin: 'https://agents.example' } })).status).toBe(200);
  });

  it('AUTH-SERVER-002: without a credential 401 with a Bearer challenge; a wrong one 401', async () => {
    const none = await rpc(t, 'GetTask', { id: 'x' }, { ...V1, token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await rpc(t, 'GetTask', { id: 'x' }, { ...V1, token: 'svc_live_wrong' })).status).toBe(401);
  });
});

describe('core operations and data model', () => {
  it('CORE-SEND-001, DM-TASK-001/002, DM-SERIAL-001..004: SendMessage returns a task in camelCase ProtoJSON with enum names and UTC timestamps', async () => {
    const task = (await rpc(t, 'SendMessage', msg(read), V1)).body.result.task;
    expect(task).toMatchObject({ id: expect.any(String), contextId: expect.any(String), status: { state: 'TASK_STATE_COMPLETED' } });
    expect(task.status.timestamp).toMatch(ISO_UTC);
    expect(task.status.message.role).toBe('ROLE_AGENT');
    expect(task.history[0].role).toBe('ROLE_USER');
    expect(JSON.stringify(task)).not.toMatch(/"[a-z]+_[a-z]+":/);
  });

  it('DM-ART-001, DM-PART-001: the artifact has an id, the tool’s name and one data part', async () => {
    const task = (await rpc(t, 'SendMessage', msg(read), V1)).body.result.task;
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0]).toMatchObject({ artifactId: expect.any(String), name: 'list_flows', parts: [{ data: { flows: expect.any(Array) } }] });
  });

  it('CORE-SEND-002: a message naming an unknown task is TaskNotFound (-32001)', async () => {
    expect((await rpc(t, 'SendMessage', msg({ decision: 'approved' }, { taskId: randomUUID() }), V1)).body.error.code).toBe(-32001);
  });

  it('CORE-SEND-003: a part whose media type the card does not accept is ContentTypeNotSupported (-32005)', async () => {
    const res = await rpc(t, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: 'AAAA', mediaType: 'image/png' }] } }, V1);
    expect(res.body.error.code).toBe(-32005);
  });

  it('CORE-GET-001/002: GetTask returns the task, historyLength limits its history (CORE-HIST-002); an unknown id is -32001', async () => {
    const task = (await rpc(t, 'SendMessage', msg(placeOrder('approval-flow')), V1)).body.result.task;
    const got = (await rpc(t, 'GetTask', { id: task.id }, V1)).body.result;
    expect(got.id).toBe(task.id);
    expect(got.history.length).toBeGreaterThan(1);
    expect((await rpc(t, 'GetTask', { id: task.id, historyLength: 1 }, V1)).body.result.history).toHaveLength(1);
    expect((await rpc(t, 'GetTask', { id: randomUUID() }, V1)).body.error.code).toBe(-32001);
  });

  it('CORE-LIST-001..005: only the caller’s tasks, newest status first, cursor pages ending with an empty token, artifacts only when asked', async () => {
    const token = await tokenFor(t, 'viewer');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await rpc(t, 'SendMessage', msg(read), { ...V1, token })).body.result.task.id);
      await t.advance(1_000);
    }
    const first = (await rpc(t, 'ListTasks', { pageSize: 2 }, { ...V1, token })).body.result;
    expect(first.tasks.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    expect(first.totalSize).toBe(3);
    expect(first.tasks[0].artifacts ?? []).toEqual([]);
    const second = (await rpc(t, 'ListTasks', { pageSize: 2, pageToken: first.nextPageToken }, { ...V1, token })).body.result;
    expect(second.tasks.map((x: { id: string }) => x.id)).toEqual([ids[0]]);
    expect(second.nextPageToken).toBe('');
    const withArtifacts = (await rpc(t, 'ListTasks', { pageSize: 1, includeArtifacts: true }, { ...V1, token })).body.result;
    expect(withArtifacts.tasks[0].artifacts).toHaveLength(1);
    expect((await rpc(t, 'ListTasks', { pageToken: 'bm90LWEtY3Vyc29y' }, { ...V1, token })).body.error.code).toBe(-32602);
  });

  it('AUTH-SCOPE-001..003: another caller’s task is not found and never listed; a token and the workspace password keep separate tasks', async () => {
    const a = await tokenFor(t, 'operator');
    const b = await tokenFor(t, 'operator');
    const task = (await rpc(t, 'SendMessage', msg(read), { ...V1, token: a })).body.result.task;
    expect((await rpc(t, 'GetTask', { id: task.id }, { ...V1, token: b })).body.error.code).toBe(-32001);
    expect((await rpc(t, 'GetTask', { id: task.id }, V1)).body.error.code).toBe(-32001);
    expect((await rpc(t, 'CancelTask', { id: task.id }, { ...V1, token: b })).body.error.code).toBe(-32001);
    expect((await rpc(t, 'ListTasks', {}, { ...V1, token: b })).body.result.tasks).toEqual([]);
  });

  it('CORE-CANCEL-001..003: a waiting task cancels; a completed one is TaskNotCancelable (-32002); an unknown one -32001', async () => {
    const waiting = (await rpc(t, 'SendMessage', msg(placeOrder('wait-flow')), V1)).body.result.task;
    expect(waiting.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await rpc(t, 'CancelTask', { id: waiting.id }, V1)).body.result.status.state).toBe('TASK_STATE_CANCELED');
    const done = (await rpc(t, 'SendMessage', msg(read), V1)).body.result.task;
    expect((await rpc(t, 'CancelTask', { id: done.id }, V1)).body.error.code).toBe(-32002);
    expect((await rpc(t, 'CancelTask', { id: randomUUID() }, V1)).body.error.code).toBe(-32001);
  });

  it('CORE-MULTI-001a/003: a follow-up message continues its task in the same context; a message to a finished task is refused', async () => {
    const task = (await rpc(t, 'SendMessage', msg(placeOrder('approval-flow')), V1)).body.result.task;
    const next = (await rpc(t, 'SendMessage', msg({ decision: 'approved' }, { taskId: task.id, contextId: task.contextId }), V1)).body.result.task;
    expect([next.id, next.contextId, next.status.state]).toEqual([task.id, task.contextId, 'TASK_STATE_COMPLETED']);
    expect((await rpc(t, 'SendMessage', msg({ decision: 'approved' }, { taskId: task.id }), V1)).body.error.code).toBe(-32004);
    const other = (await rpc(t, 'SendMessage', msg(read, { contextId: task.contextId }), V1)).body.result.task;
    expect(other.contextId).toBe(task.contextId);
    expect(other.id).not.toBe(task.id);
  });

  it('CORE-EXECUTION-MODE-001: returnImmediately answers with the task at once; GetTask reads its outcome', async () => {
    const task = (await rpc(t, 'SendMessage', { ...msg(read), configuration: { returnImmediately: true } }, V1)).body.result.task;
    expect(task.id).toEqual(expect.any(String));
    await t.advance(0);
    expect((await rpc(t, 'GetTask', { id: task.id }, V1)).body.result.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('streaming', () => {
  it('STREAM-ORDER-001..004: the task first, then updates, ending with a final status', async () => {
    const events = sseEvents((await rpc(t, 'SendStreamingMessage', msg(placeOrder('done-flow')), V1)).text).map((e) => e.result);
    expect(Object.keys(events[0])).toEqual(['task']);
    expect(events.slice(1).every((e) => 'statusUpdate' in e || 'artifactUpdate' in e)).toBe(true);
    expect(events[events.length - 1].statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('STREAM-SUB-001..004: SubscribeToTask sends the task first and each change until the end; a finished task is refused; an unknown one is -32001', async () => {
    const task = (await rpc(t, 'SendMessage', msg(placeOrder('wait-flow')), V1)).body.result.task;
    const { orderId } = task.metadata;
    const stream = await openStream(t, 'SubscribeToTask', { id: task.id });
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
    expect((await stream.next()).result.task.id).toBe(task.id);
    // The order moves on from outside A2A (REST); the subscription hears it and ends with the task.
    await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'payment.received' });
    const events = (await stream.rest()).map((e) => e.result);
    expect(events[events.length - 1].statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await rpc(t, 'SubscribeToTask', { id: task.id }, V1)).body.error.code).toBe(-32004);
    expect((await rpc(t, 'SubscribeToTask', { id: randomUUID() }, V1)).body.error.code).toBe(-32001);
  });
});

describe('push configs', () => {
  it('PUSH-CREATE-001/002, PUSH-GET-001/002, PUSH-LIST-001, PUSH-DEL-001/002: create (id assigned), get, list, delete (idempotent)', async () => {
    const task = (await rpc(t, 'SendMessage', msg(placeOrder('wait-flow')), V1)).body.result.task;
    const created = (await rpc(t, 'CreateTaskPushNotificationConfig', { taskId: task.id, url: 'https://hooks.example/a2a', token: 'tok' }, V1)).body.result;
    expect(created).toMatchObject({ taskId: task.id, url: 'https://hooks.example/a2a', id: expect.any(String) });
    expect((await rpc(t, 'GetTaskPushNotificationConfig', { taskId: task.id, id: created.id }, V1)).body.result).toMatchObject({ url: 'https://hooks.example/a2a', token: 'tok' });
    expect((await rpc(t, 'GetTaskPushNotificationConfig', { taskId: task.id, id: 'nope' }, V1)).body.error.code).toBe(-32001);
    expect((await rpc(t, 'ListTaskPushNotificationConfigs', { taskId: task.id }, V1)).body.result.configs).toHaveLength(1);
    expect((await rpc(t, 'DeleteTaskPushNotificationConfig', { taskId: task.id, id: created.id }, V1)).body.result).toBeNull();
    expect((await rpc(t, 'DeleteTaskPushNotificationConfig', { taskId: task.id, id: created.id }, V1)).body.result).toBeNull();
    expect((await rpc(t, 'CreateTaskPushNotificationConfig', { taskId: randomUUID(), url: 'https://hooks.example/a2a' }, V1)).body.error.code).toBe(-32001);
  });
});

describe('versioning', () => {
  it('VER-SERVER-001: an unsupported A2A-Version is VersionNotSupported (-32009)', async () => {
    for (const version of ['2.0', '0.2', 'banana']) expect((await rpc(t, 'GetTask', { id: 'x' }, { version })).body.error.code, version).toBe(-32009);
  });

  it('VER-SERVER-002/003, VER-CLIENT-002: no header is 0.3 by its method names, or 1.0 by its; 1.0.0 and 0.3.0 negotiate as 1.0 and 0.3', async () => {
    const legacy = await rpc(t, 'message/send', msg03(read), { version: null });
    expect(legacy.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const v1 = await rpc(t, 'SendMessage', msg(read), { version: null });
    expect(v1.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await rpc(t, 'SendMessage', msg(read), { version: '1.0.0' })).body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await rpc(t, 'message/send', msg03(read), { version: '0.3.0' })).body.result.kind).toBe('task');
    // 0.3 with 1.0 method names: not a 0.3 method.
    expect((await rpc(t, 'SendMessage', msg(read), { version: '0.3' })).body.error.code).toBe(-32601);
  });

  it('0.3 mandatory set: tasks/get and tasks/cancel in 0.3 shapes, shared with 1.0; error codes', async () => {
    const placed = (await rpc(t, 'message/send', msg03(placeOrder('wait-flow')), { version: null })).body.result;
    expect(placed).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    expect((await rpc(t, 'tasks/get', { id: placed.id }, { version: null })).body.result).toMatchObject({ kind: 'task', id: placed.id });
    expect((await rpc(t, 'GetTask', { id: placed.id }, V1)).body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await rpc(t, 'tasks/cancel', { id: placed.id }, { version: null })).body.result.status.state).toBe('canceled');
    expect((await rpc(t, 'tasks/get', { id: randomUUID() }, { version: null })).body.error.code).toBe(-32001);
    expect((await rpc(t, 'tasks/cancel', { id: placed.id }, { version: null })).body.error.code).toBe(-32002);
  });

  it('contract 11: a task already final (completed, failed, rejected, canceled) is not cancelable: -32002 on 1.0 CancelTask and 0.3 tasks/cancel, the task unchanged', async () => {
    const completed = (await rpc(t, 'SendMessage', msg(read), V1)).body.result.task;
    const failed = (await rpc(t, 'SendMessage', msg({ skill: 'get_order', input: { orderId: 'ord_missing' } }), V1)).body.result.task;
    const rejected = (await rpc(t, 'SendMessage', msg({ skill: 'no_such_skill', input: {} }), V1)).body.result.task;
    const canceled = (await rpc(t, 'SendMessage', msg(placeOrder('wait-flow')), V1)).body.result.task;
    expect((await rpc(t, 'CancelTask', { id: canceled.id }, V1)).body.result.status.state).toBe('TASK_STATE_CANCELED');
    const finals = { TASK_STATE_COMPLETED: completed, TASK_STATE_FAILED: failed, TASK_STATE_REJECTED: rejected, TASK_STATE_CANCELED: canceled };
    for (const [state, task] of Object.entries(finals)) {
      for (const [method, version] of [['CancelTask', '1.0'], ['tasks/cancel', null]] as const) {
        const res = await rpc(t, method, { id: task.id }, { version });
        expect([state, method, res.body.error?.code, res.body.result]).toEqual([state, method, -32002, undefined]);
      }
      expect((await rpc(t, 'GetTask', { id: task.id }, V1)).body.result.status.state).toBe(state);
    }
  });
});
