// A due order timer is handed to the runtime once per process (docs/architecture.md "Timers are rows"): the test
// clock's advance and the scheduler's own loop both find it due, and neither opens the order a second time for a
// claim that would find it fired (the bench counted ~0.4 such no-op commands per marketplace order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimerObservation } from '../../../src/engine/engine-probe.js';
import { e, n, startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';

let h: EngineHarness;
let version: number;
beforeAll(async () => {
  h = await startEngineHarness();
  version = await h.publish('short-timeout', {
    // 20 s: inside the scheduler's horizon, so each timer is also in the index when the clock passes it.
    nodes: [n('start', 'trigger.api'), n('wait', 'wait.event', { event: 'x', timeout: '20s' }), n('late', 'end', { outcome: 'cancelled', reason: 'timed out' }), n('ok', 'end', { outcome: 'completed' })],
    edges: [e('start', 'wait'), e('wait', 'ok', 'received'), e('wait', 'late', 'timeout')],
  });
});
afterAll(async () => {
  await h?.close();
});

describe('timer routing', () => {
  it('an order timer the test clock fires is routed once: the scheduler loop does not route it again afterwards or meanwhile', async () => {
    const seen: TimerObservation[] = [];
    const listen = (t: TimerObservation) => void (t.kind === 'wait.timeout' && seen.push(t));
    h.engine.probe.on('timer', listen);
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, () => h.startOrder('short-timeout', version)));
      await h.t.advance(21_000);
      // Several of the scheduler's poll periods (100 ms) in real time: a left-over index entry would be claimed by now.
      await new Promise((r) => setTimeout(r, 600));
      for (const id of ids) expect((await h.state(id))?.status).toBe('cancelled');
      expect(seen.filter((t) => t.outcome === 'fired')).toHaveLength(ids.length);
    } finally {
      h.engine.probe.off('timer', listen);
    }
  });
});
