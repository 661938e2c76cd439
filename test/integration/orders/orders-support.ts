// Shared helpers for the orders API suites: a service with test node types, flows published over REST.
import { startTestService, type TestService, type TestServiceOptions } from '../../support/test-service.js';
import { testEffect, testEffectPorts, TEST_EFFECTS_DDL } from '../../support/test-node-types.js';
import { e, n } from '../../support/engine-harness.js';

export { e, n };

export async function startOrdersService(options: TestServiceOptions = {}): Promise<TestService> {
  const t = await startTestService({ ...options, start: { engine: { nodeTypes: [testEffect], ports: testEffectPorts, builtinFlows: false }, ...options.start } });
  await t.service.ctx.db.query(TEST_EFFECTS_DDL);
  return t;
}

export { publishFlow } from '../../support/publish-flow.js';

/** start -> wait for `payment.received` (3 d) -> completed; an approval flow; a flow that emits order events. */
export const graphs = {
  eventWait: {
    nodes: [n('start', 'trigger.api'), n('pay', 'wait.event', { event: 'payment.received', timeout: '3d' }), n('done', 'end', { outcome: 'completed' }), n('late', 'end', { outcome: 'cancelled', reason: 'No payment' })],
    edges: [e('start', 'pay'), e('pay', 'done', 'received'), e('pay', 'late', 'timeout')],
  },
  approval: {
    nodes: [
      n('start', 'trigger.api'),
      n('review', 'human.approval', { title: 'Review {{order.title}}', assignee: 'finance' }, 'Finance review'),
      n('done', 'end', { outcome: 'completed' }),
      n('no', 'end', { outcome: 'declined', reason: 'Rejected in review' }),
      n('late', 'end', { outcome: 'failed', reason: 'Nobody decided' }),
    ],
    edges: [e('start', 'review'), e('review', 'done', 'approved'), e('review', 'no', 'rejected'), e('review', 'late', 'escalated')],
  },
  emitting: {
    nodes: [
      n('start', 'trigger.api'),
      n('pay', 'test.effect', { emit: 'order.paid' }),
      n('ship', 'test.effect', { emit: 'order.shipped' }),
      n('done', 'end', { outcome: 'completed' }),
    ],
    edges: [e('start', 'pay'), e('pay', 'ship'), e('ship', 'done')],
  },
};

/** A minimal valid start body. */
export function startBody(flowId: string, input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { flowId, input: { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 2, unitPrice: 12.5 }], ...input }, ...extra };
}

/** Polls `fn` until it returns a truthy value (or fails after `ms`). */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Creates an API token with `role` over REST; returns its secret. */
export async function tokenFor(t: TestService, role: 'viewer' | 'approver' | 'operator', name = `${role}-${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const res = await t.call('POST', '/api/v1/api-tokens', { name, role, expiresIn: '90d' });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
  return res.body.secret;
}

/** Number of orders whose title is `title` (tests tag their orders with unique titles). */
export async function countOrders(t: TestService, where = 'TRUE', params: unknown[] = []): Promise<number> {
  const { rows } = await t.service.ctx.db.query(`SELECT count(*)::int AS n FROM orders WHERE ${where}`, params);
  return rows[0].n;
}
