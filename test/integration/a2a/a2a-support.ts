// Shared helpers for the A2A suites: a service with test flows, the SDK's 1.0 client and 0.3 transport, raw JSON-RPC.
import { randomUUID } from 'node:crypto';
import { Role, type Message, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startOrdersService, tokenFor, e, n } from '../orders/orders-support.js';

export { tokenFor, WORKSPACE_PASSWORD };

/** A service with the order test flows: `wait-flow` (event), `approval-flow`, `done-flow` (completes at once). */
export async function startA2aService(options: Parameters<typeof startOrdersService>[0] = {}): Promise<TestService> {
  const t = await startOrdersService(options);
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'approval-flow', graphs.approval);
  await publishFlow(t, 'done-flow', { nodes: [n('start', 'trigger.api'), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'done')] });
  return t;
}

/** fetch that sends `token` as the bearer. */
export function bearerFetch(token: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

/** The official 1.0 client, found through the agent card (ClientFactory). */
export async function client10(t: TestService, token = WORKSPACE_PASSWORD): Promise<Client> {
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: bearerFetch(token) })] }));
  return factory.createFromUrl(t.url);
}

/** The official 0.3 JSON-RPC transport. */
export function client03(t: TestService, token = WORKSPACE_PASSWORD): LegacyJsonRpcTransport {
  return new LegacyJsonRpcTransport({ endpoint: `${t.url}/a2a`, fetchImpl: bearerFetch(token) });
}

/** A user message with one data part (`{ skill, input }` or a reply). */
export function dataMessage(value: Record<string, unknown>, extra: Partial<Message> = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

export function textMessage(text: string, extra: Partial<Message> = {}): Message {
  return { ...dataMessage({}), parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }], ...extra };
}

export function send(message: Message, configuration?: SendMessageRequest['configuration']): SendMessageRequest {
  return { tenant: '', message, configuration, metadata: undefined };
}

/** A place_order request body for a test flow. */
export function placeOrder(flowId: string, title = `a2a ${randomUUID().slice(0, 8)}`) {
  return { skill: 'place_order', input: { flowId, input: { model: 'b2c', title, lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } } };
}

export function asTask(result: Message | Task): Task {
  if (!('status' in result)) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

/** The text of a task's status message. */
export function statusText(task: Task): string {
  return (task.status?.message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

/** The data of the task's artifact named `name`. */
export function artifactData(task: Task, name: string): any {
  const artifact = task.artifacts.find((a) => a.name === name);
  const part = artifact?.parts[0]?.content;
  return part?.$case === 'data' ? part.value : undefined;
}

/** A raw JSON-RPC call to /a2a. */
export async function rpc(t: TestService, method: string, params: unknown, options: { token?: string | null; version?: string | null; id?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const token = options.token === undefined ? WORKSPACE_PASSWORD : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.version) headers['a2a-version'] = options.version;
  const res = await fetch(`${t.url}/a2a`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method, params }) });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* SSE or text */
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Data events of an SSE answer, parsed. */
export function sseEvents(text: string): any[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join(''))
    .filter((d) => d !== '')
    .map((d) => JSON.parse(d));
}

/** A JSON-RPC call answered as SSE, read event by event (so a test acts only once the stream has begun). */
export async function openStream(t: TestService, method: string, params: unknown, version = '1.0') {
  const res = await fetch(`${t.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${WORKSPACE_PASSWORD}`, 'a2a-version': version },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<any | null> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  const rest = async () => {
    const events: any[] = [];
    for (let e = await next(); e; e = await next()) events.push(e);
    return events;
  };
  return { res, next, rest };
}
