// Replay: snapshots persisted by earlier built-in flow versions still rehydrate and continue to the same
// outcome under today's code (DESIGN rule 7; issue "Flow engine": replay fixtures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { applyResume, listFixtures, loadFixture, outcome } from '../../support/replay-fixtures.js';

const fixtures = listFixtures();

describe('replay fixtures', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ redis: false });
  });
  afterAll(async () => t?.close());

  it('there is a fixture for every built-in flow that waits', () => {
    const flows = new Set(fixtures.map((f) => f.flowId));
    for (const id of ['tpl-marketplace-order', 'tpl-b2b-order', 'tpl-subscription', 'tpl-purchase-request', 'tpl-omnichannel-order'])
      expect(flows.has(id), id).toBe(true);
  });

  for (const f of fixtures)
    it(`${f.flowId} v${f.version} (compiler ${f.compilerVersion}) rehydrates at its wait and continues as recorded`, async () => {
      const db = t.service.ctx.db;
      const { orderId } = await loadFixture(db, f, t.service.ctx.clock.now());
      const live = await t.call('GET', `/api/v1/orders/${orderId}`);
      expect(live.status).toBe(200);
      expect(live.body.status).toBe('waiting');
      await applyResume(t, orderId, f.resume);
      expect(await outcome(db, orderId)).toEqual(f.expected);
    });
});
