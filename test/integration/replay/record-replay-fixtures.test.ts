// Records replay fixtures of the current built-in flow versions (run: npm run fixtures:replay).
// Skipped in normal runs: fixtures are recorded once per published version and then kept frozen.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILER_VERSION } from '../../../src/engine/compiler.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { applyResume, dumpOrder, outcome, replayDir, type ResumeAction } from '../../support/replay-fixtures.js';

const RECORD = process.env.RECORD_REPLAY === '1';

/** A sample order per built-in flow that reaches a wait, and how the recorder answers it. */
const SAMPLES: Record<string, { input: Record<string, unknown>; resume: (waitingNode: string, kind: string, event: string | null) => ResumeAction[] }> = {
  'tpl-marketplace-order': {
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }, { sku: 'MUG-1', qty: 2 }] },
    resume: () => [{ kind: 'event', event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' } }],
  },
  'tpl-b2b-order': {
    input: { model: 'b2b', channel: 'api', customerId: 'cust_corp', lines: [{ sku: 'MUG-1', qty: 10, unitPrice: 600 }] },
    resume: (node, kind) => (kind === 'approval' ? [{ kind: 'approval', nodeId: node, decision: 'approved' }] : [{ kind: 'advance', ms: 31 * 86_400_000 }]),
  },
  'tpl-subscription': {
    input: { model: 'subscription', channel: 'api', customerId: 'cust_1', lines: [{ sku: 'MUG-1', qty: 1 }] },
    resume: () => [{ kind: 'advance', ms: 31 * 86_400_000 }],
  },
  'tpl-purchase-request': {
    input: { model: 'procurement', channel: 'api', customerId: 'cust_corp', lines: [{ sku: 'LAMP-OAK', qty: 3 }] },
    resume: (node, kind, event) =>
      kind === 'approval' ? [{ kind: 'approval', nodeId: node, decision: 'approved' }] : [{ kind: 'event', event: event ?? 'goods.received', payload: { source: 'replay' } }],
  },
  'tpl-omnichannel-order': {
    input: { model: 'd2c', channel: 'web', customerId: 'cust_1', fulfillment: { method: 'pickup', locationId: 'store_soho' }, lines: [{ sku: 'MUG-1', qty: 1 }] },
    resume: (_node, kind, event) => (kind === 'event' ? [{ kind: 'event', event: event ?? 'order.collected', payload: { source: 'replay' } }] : [{ kind: 'advance', ms: 8 * 86_400_000 }]),
  },
};

describe.skipIf(!RECORD)('record replay fixtures', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ redis: false });
  });
  afterAll(async () => t?.close());

  for (const [flowId, sample] of Object.entries(SAMPLES)) {
    it(`records ${flowId} at its first wait`, async () => {
      const db = t.service.ctx.db;
      const { rows: fl } = await db.query('SELECT published_version FROM flows WHERE id = $1', [flowId]);
      const version = fl[0].published_version as number;
      const { rows: vr } = await db.query('SELECT graph FROM flow_versions WHERE flow_id = $1 AND version = $2', [flowId, version]);
      const graph = vr[0].graph;
      const hash = createHash('sha256').update(JSON.stringify(graph)).digest('hex').slice(0, 8);
      const file = path.join(replayDir, `${flowId}@${version}-${hash}.json`);
      if (existsSync(file)) return; // frozen: never re-recorded
      const start = await t.call('POST', '/api/v1/orders', { flowId, input: sample.input });
      expect(start.status, start.text).toBe(201);
      const orderId = start.body.orderId as string;
      const { rows: waits } = await db.query("SELECT node_id, kind, event FROM order_waits WHERE order_id = $1 AND status = 'open'", [orderId]);
      expect(waits.length, `${flowId} reaches a wait`).toBeGreaterThan(0);
      const rows = await dumpOrder(db, orderId);
      const recordedAt = t.service.ctx.clock.now();
      const resume = sample.resume(waits[0].node_id, waits[0].kind, waits[0].event);
      await applyResume(t, orderId, resume);
      const expected = await outcome(db, orderId);
      writeFileSync(
        file,
        JSON.stringify({ flowId, version, compilerVersion: COMPILER_VERSION, recordedAt, graph, orderId, rows, resume, expected }, null, 1) + '\n',
      );
    });
  }
});
