// The live connection across nodes: a change committed on one node reaches a socket on another through Redis
// pub/sub (issue 5; runs when TEST_REDIS_URL is set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startBody, startOrdersService } from './orders-support.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('live connection across two nodes (Redis)', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    a = await startOrdersService();
    b = await startOrdersService({ database: a.database });
    await publishFlow(a, 'wait-flow', graphs.eventWait);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a socket on node A sees the state after an event delivered through node B', async () => {
    const orderId = (await a.call('POST', '/api/v1/orders', startBody('wait-flow'))).body.orderId;
    const ws = new WebSocket(`${a.url.replace('http', 'ws')}/agents/order-agent/${orderId}`, { headers: { authorization: `Bearer ${WORKSPACE_PASSWORD}` } });
    const states: any[] = [];
    ws.on('message', (d) => states.push(JSON.parse(d.toString())));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const until = Date.now() + 5_000;
    while (states.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(states[0].state.status).toBe('waiting');
    expect((await b.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'payment.received' })).body.delivered).toBe(true);
    while (!states.some((m) => m.state?.status === 'completed') && Date.now() < until + 5_000) await new Promise((r) => setTimeout(r, 20));
    expect(states.some((m) => m.state?.status === 'completed')).toBe(true);
    ws.close();
  });
});
