// Steps' statements are prepared per connection; a column added by another node's migration must not fail a step
// (contract section 5 "Run outcomes": only the step's own errors are step failures).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import type { NodeTypeDef } from '../../../src/engine/node-type.js';
import { e, n, startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';
import { testEffect, testEffectPorts, testEffects } from '../../support/test-node-types.js';
import { startBody } from '../orders/orders-support.js';

/** A step that reads `SELECT *` (prepared on its connection by the step client) and reports the columns it saw. */
const readStar: NodeTypeDef<Record<string, never>> = {
  type: 'test.read_star',
  kind: 'step',
  label: 'Read star',
  description: 'Reads SELECT * from test_effects.',
  params: z.object({}).strict(),
  branches: () => ['ok'],
  defaultBranch: 'ok',
  async run(ctx) {
    return { branch: 'ok', output: { columns: await testEffects(ctx).columns(ctx.order.id) } };
  },
};

let h: EngineHarness;
let version: number;
beforeAll(async () => {
  h = await startEngineHarness({ start: { engine: { nodeTypes: [testEffect, readStar], ports: testEffectPorts, builtinFlows: false } } });
  version = await h.publish('read-star', {
    nodes: [n('start', 'trigger.api'), n('read', 'test.read_star'), n('done', 'end', { outcome: 'completed' })],
    edges: [e('start', 'read'), e('read', 'done')],
  });
});
afterAll(async () => {
  await h?.close();
});

it('a prepared SELECT * made stale by an added column is rerun on a fresh connection, not recorded as a step failure', async () => {
  // Warm several pool connections so each holds the prepared statement.
  const before = await Promise.all(Array.from({ length: 6 }, () => h.startOrder('read-star', version)));
  for (const id of before) expect((await h.state(id)).status).toBe('completed');
  const columnsBefore = (await h.state(before[0])).nodes.read.output.columns;

  await h.t.service.ctx.db.query('ALTER TABLE test_effects ADD COLUMN added_later int');

  const after = await Promise.all(Array.from({ length: 6 }, () => h.startOrder('read-star', version)));
  for (const id of after) {
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.read).toMatchObject({ status: 'succeeded', runs: 1, error: null });
    expect(s.timeline.map((t: { kind: string }) => t.kind)).not.toContain('node.retry');
    expect(s.nodes.read.output.columns).toBe(columnsBefore + 1);
  }
});

it('a column added to orders (the lock reads are prepared per connection) does not stop commands', async () => {
  const warm = await Promise.all(Array.from({ length: 6 }, () => h.startOrder('read-star', version)));
  for (const id of warm) expect((await h.state(id)).status).toBe('completed');

  await h.t.service.ctx.db.query('ALTER TABLE orders ADD COLUMN added_later int');

  const after = await Promise.all(Array.from({ length: 6 }, () => h.startOrder('read-star', version)));
  for (const id of after) expect(await h.state(id)).toMatchObject({ status: 'completed', nodes: { read: { status: 'succeeded', runs: 1 } } });
});

it("a new order's statements (prepared per connection: start context, insert RETURNING *) survive a column added to orders: POST /orders answers 201", async () => {
  const start = () => h.t.call('POST', '/api/v1/orders', startBody('read-star'));
  for (const res of await Promise.all(Array.from({ length: 6 }, start))) expect(res.status).toBe(201);

  await h.t.service.ctx.db.query('ALTER TABLE orders ADD COLUMN added_after_start int');

  const after = await Promise.all(Array.from({ length: 6 }, start));
  for (const res of after) {
    expect(res.status).toBe(201);
    expect(await h.state(res.body.orderId)).toMatchObject({ status: 'completed', nodes: { read: { status: 'succeeded', runs: 1 } } });
  }
});
