// place_order once per messageId, crash or not: the start is keyed by caller and messageId inside the order's own
// transaction (the one idempotency record), so racing, retried or crashed requests never start a second order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TestService } from '../../support/test-service.js';
import { artifactData, asTask, client10, dataMessage, placeOrder, send, startA2aService, tokenFor } from './a2a-support.js';
import { graphs, publishFlow } from '../orders/orders-support.js';
import { placeOrderKey } from '../../../src/a2a/a2a-placed-orders.js';

let t: TestService;
beforeAll(async () => {
  t = await startA2aService();
  await publishFlow(t, 'once-flow', graphs.eventWait);
});
afterAll(async () => {
  await t?.close();
});

describe('place_order exactly once per messageId', () => {
  it('an order started under the message’s key before a crash is the order the retry follows', async () => {
    const token = await tokenFor(t, 'operator', 'place-once');
    const { rows } = await t.service.ctx.db.query<{ id: string }>("SELECT id FROM api_tokens WHERE name = 'place-once'");
    const owner = `token:${rows[0].id}`;
    const messageId = randomUUID();
    const body = { flowId: 'once-flow', input: { model: 'b2c', title: `once ${messageId}` } };
    // What the dying request did: the order's transaction committed (with its key), the claim did not.
    const operator = { kind: 'token' as const, id: rows[0].id, role: 'operator' as const, actor: 'token:place-once', via: 'bearer' as const };
    const first = (await t.service.ctx.operations.callByName('place_order', operator, { ...body, idempotencyKey: placeOrderKey(owner, messageId) }, { ip: null })) as { orderId: string };
    const retried = asTask(await (await client10(t, token)).sendMessage(send(dataMessage({ skill: 'place_order', input: body }, { messageId }))));
    const placed = await t.service.ctx.db.query("SELECT count(*)::int AS n FROM orders WHERE title = $1", [`once ${messageId}`]);
    expect(placed.rows[0].n).toBe(1);
    expect(JSON.stringify(retried.artifacts)).toContain(first.orderId);
  });

  it('one messageId raced 10 times starts one order, every task follows it, and a later retry answers the same order', async () => {
    const client = await client10(t);
    const request = placeOrder('once-flow', `raced ${randomUUID()}`);
    const messageId = randomUUID();
    const tasks = await Promise.all(Array.from({ length: 10 }, async () => asTask(await client.sendMessage(send(dataMessage(request, { messageId }))))));
    const ids = new Set(tasks.map((task) => artifactData(task, 'place_order')?.orderId));
    expect(ids.size).toBe(1);
    const retried = asTask(await client.sendMessage(send(dataMessage(request, { messageId }))));
    expect(artifactData(retried, 'place_order').orderId).toBe([...ids][0]);
    const placed = await t.service.ctx.db.query('SELECT count(*)::int AS n FROM orders WHERE title = $1', [(request.input as any).input.title]);
    expect(placed.rows[0].n).toBe(1);
    const keys = await t.service.ctx.db.query("SELECT count(*)::int AS n FROM idempotency_keys WHERE scope = 'agents.place_order' AND order_id = $1", [[...ids][0]]);
    expect(keys.rows[0].n).toBe(1);
  });

  it('place_order with an idempotency key answers the first order for the same body and refuses another body', async () => {
    const operator = { kind: 'workspace' as const, id: null, role: 'operator' as const, actor: 'api', via: 'bearer' as const };
    const call = (input: unknown) => t.service.ctx.operations.callByName('place_order', operator, input, { ip: null }) as Promise<{ orderId: string }>;
    const body = { flowId: 'once-flow', input: { model: 'b2c', title: 'keyed' } };
    const a = await call({ ...body, idempotencyKey: 'agent-key-1' });
    expect((await call({ ...body, idempotencyKey: 'agent-key-1' })).orderId).toBe(a.orderId);
    await expect(call({ ...body, input: { model: 'b2c', title: 'other' }, idempotencyKey: 'agent-key-1' })).rejects.toMatchObject({ kind: 'unprocessable' });
  });
});
