// The optional model (ASSISTANT_PROVIDER_URL, ASSISTANT_MODEL, ASSISTANT_API_KEY) against a local fake OpenAI-compatible
// endpoint: it chooses tools, reads run as the caller, a write becomes a proposal (never run), and a dead model falls
// back to the grammar. Never needed for npm test otherwise.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import { graphs, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';

let t: TestService;
let fake: http.Server;
const requests: { authorization?: string; body: any }[] = [];
/** What the fake model answers next, one per request. */
const script: any[] = [];

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      requests.push({ authorization: req.headers.authorization, body: JSON.parse(raw) });
      const next = script.shift();
      if (next === 'fail') {
        res.writeHead(500).end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: next }] }));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  t = await startOrdersService({ env: { ASSISTANT_PROVIDER_URL: url, ASSISTANT_MODEL: 'fake-model', ASSISTANT_API_KEY: 'sk-test-key' } });
  await publishFlow(t, 'model-wait', graphs.eventWait);
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => fake.close(r));
});

const operator: Principal = { kind: 'person', id: 'per_model', role: 'operator', actor: 'model@example.com', via: 'bearer' };
const ask = (text: string) => t.service.ctx.operations.call('chat', operator, { text }, { ip: null }) as Promise<any>;
const toolCall = (name: string, args: unknown) => ({ content: null, tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });

describe('chat with an OpenAI-compatible model', () => {
  it('the model reads through the tools as the caller and writes the answer; it is given every tool but chat', async () => {
    const id = (await t.call('POST', '/api/v1/orders', startBody('model-wait'))).body.orderId;
    script.push(toolCall('find_orders', { status: 'waiting' }), { content: 'One order waits.' });
    requests.length = 0;
    const answer = await ask('how are we doing?');
    expect(answer).toMatchObject({ text: 'One order waits.', intent: 'model', tool: 'find_orders', proposal: null });
    expect(answer.data.orders.map((o: { id: string }) => o.id)).toContain(id);
    expect(requests[0].authorization).toBe('Bearer sk-test-key');
    expect(requests[0].body.model).toBe('fake-model');
    const names = requests[0].body.tools.map((tool: any) => tool.function.name);
    expect(names).toContain('find_orders');
    expect(names).not.toContain('chat');
    // The tool's output went back to the model as the tool message.
    expect(requests[1].body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_find_orders' });
  });

  it('a write the model chooses is only proposed: nothing runs before confirmation', async () => {
    const id = (await t.call('POST', '/api/v1/orders', startBody('model-wait'))).body.orderId;
    script.push(toolCall('cancel_order', { orderId: id }));
    const answer = await ask(`get rid of ${id}`);
    expect(answer.proposal).toEqual({ skill: 'cancel_order', input: { orderId: id } });
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
  });

  it('a model that fails leaves the grammar to answer', async () => {
    script.push('fail');
    const answer = await ask('what needs attention?');
    expect(answer.intent).toBe('needs_attention');
    expect(answer.tool).toBe('needs_attention');
  });
});
