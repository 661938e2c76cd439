// The node catalogue over REST: every type the contract names, with params schema and branches (contract section 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ redis: false });
});
afterAll(async () => t?.close());

const NAMED = [
  'trigger.api', 'trigger.webhook', 'ai.extract_order', 'commerce.fraud_score', 'commerce.price', 'commerce.authorize_payment',
  'commerce.split_by_seller', 'commerce.notify', 'commerce.seller_accept', 'commerce.reserve_stock', 'commerce.route_fulfillment',
  'commerce.ship', 'commerce.capture_payment', 'commerce.charge', 'commerce.invoice', 'commerce.pickup_ready', 'commerce.handover',
  'commerce.deliver_digital', 'commerce.refund', 'commerce.payout', 'human.approval', 'wait.event', 'wait.delay', 'logic.branch',
  'logic.loop', 'end',
];

describe('GET /api/v1/node-types', () => {
  it('lists every node type the contract names, with a params JSON schema', async () => {
    const res = await t.call('GET', '/api/v1/node-types');
    expect(res.status).toBe(200);
    const types = new Map(res.body.nodeTypes.map((n: any) => [n.type, n]));
    for (const name of NAMED) expect(types.has(name), name).toBe(true);
    const approval: any = types.get('human.approval');
    expect(approval.kind).toBe('wait');
    expect(approval.params.properties.title.default).toBe('Approve order {{order.id}}');
    expect(approval.params.properties.assignee.default).toBe('manager');
  });

  it("lists each type's branches, the edges a flow wires from its nodes", async () => {
    const types = new Map((await t.call('GET', '/api/v1/node-types')).body.nodeTypes.map((n: any) => [n.type, n.branches]));
    expect(types.get('human.approval')).toEqual(['approved', 'rejected', 'escalated']);
    expect(types.get('wait.event')).toEqual(['received', 'timeout']);
    expect(types.get('commerce.seller_accept')).toEqual(['pending', 'accepted', 'partial', 'rejected']);
    expect(types.get('end')).toEqual([]);
    for (const [type, branches] of types) expect(Array.isArray(branches), String(type)).toBe(true);
  });

  it('needs a credential (viewer)', async () => {
    expect((await t.call('GET', '/api/v1/node-types', undefined, { token: null })).status).toBe(401);
  });
});
