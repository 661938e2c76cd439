// The built-in marketplace flow's live orders moved to new versions over real HTTP (runtime contract 15, issue 34): an order in the
// acceptance loop (a pass in, its 2-day deadline part-way elapsed) and one in the return window (a delay renamed by mapping) move
// to a version that adds a step after the sellers' wait; the next answer runs the new step, the delay fires at its original time,
// and a failure after the move undoes every step completed before and after it, in reverse.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';
import { testEffect, testEffectPorts } from '../../support/test-node-types.js';
import { eventually, publishFlow } from '../orders/orders-support.js';
import type { NewOrderLine } from '../../../src/orders/new-order.js';

const FLOW = 'tpl-marketplace-order';
const DAY = 86_400_000;
let h: EngineHarness;

beforeAll(async () => {
  h = await startEngineHarness({
    start: { engine: { nodeTypes: [testEffect], ports: testEffectPorts, builtinFlows: true }, batches: { leaseMs: 1_500, pollMs: 100, recoverMs: 200, creatorTtlMs: 200 } },
  });
});
afterAll(async () => {
  await h?.close();
});

type Graph = { nodes: { id: string; type: string; params?: Record<string, unknown>; label?: string }[]; edges: { from: string; to: string; branch?: string }[] };
const base = (JSON.parse(readFileSync(new URL('../../../machines/tpl-marketplace-order.json', import.meta.url), 'utf8')) as { graph: Graph }).graph;

/** The marketplace graph with a step after the sellers' wait (`note_answer`, failing when told) and the return window's delay renamed. */
function nextVersion(fails: boolean): Graph {
  const rename = (id: string) => (id === 'wait_returns' ? 'return_period' : id);
  return {
    nodes: [...base.nodes.map((x) => ({ ...x, id: rename(x.id) })), { id: 'note_answer', type: 'test.effect', label: 'Note the answer', ...(fails ? { params: { fail: 'terminal' } } : {}) }],
    edges: [
      ...base.edges.filter((x) => !(x.from === 'wait_sellers' && x.branch === 'received')).map((x) => ({ ...x, from: rename(x.from), to: rename(x.to) })),
      { from: 'wait_sellers', to: 'note_answer', branch: 'received' },
      { from: 'note_answer', to: 'record_answer' },
    ],
  };
}

async function order(lines: Partial<NewOrderLine>[]): Promise<string> {
  const full: NewOrderLine[] = lines.map((l) => ({ sku: 'MUG-1', name: null, qty: 1, unitPriceMinor: null, sellerId: null, locationId: null, ...l }));
  return h.startOrder(FLOW, 1, { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', contactEmail: 'buyer@example.com', subtotalMinor: 0, taxMinor: 0, totalMinor: 0, lines: full });
}
const live = async (id: string) => (await h.t.call('GET', `/api/v1/orders/${id}`)).body;
const answer = (id: string, sellerId: string) => h.t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId, decision: 'accepted' } });
const settled = (id: string, status: string) => eventually(async () => ((await live(id)).status === status ? live(id) : null), 10_000, `order ${status}`);

async function move(body: Record<string, unknown>): Promise<void> {
  const res = await h.t.call('POST', `/api/v1/flows/${FLOW}/migrations`, body);
  expect(res.status, res.text).toBe(202);
  const done = await eventually(async () => {
    const got = (await h.t.call('GET', `/api/v1/batches/${res.body.batch.id}`)).body;
    return got.batch.state === 'completed' ? got : null;
  }, 15_000, 'the migrate batch');
  expect(done.results.every((r: { outcome: string }) => r.outcome === 'done'), JSON.stringify(done.results)).toBe(true);
}

describe('the marketplace flow’s live orders move (contract 15)', () => {
  it('the acceptance loop and the return window move; the answer runs the new step, the delay fires at its time, a later failure undoes everything in reverse', async () => {
    const looping = await order([{ sku: 'PAN-CAST-10', qty: 2 }, { sku: 'TENT-2P', qty: 1 }]);
    const failing = await order([{ sku: 'PAN-CAST-10', qty: 1 }]);
    const returning = await order([{ sku: 'MUG-1', qty: 2 }]);
    expect((await answer(looping, 'seller_acme')).body).toEqual({ delivered: true, nodeId: 'wait_sellers' });
    await h.t.advance(DAY);
    const loopBefore = await live(looping);
    const returnBefore = await live(returning);
    expect(loopBefore.status).toBe('waiting');
    expect(loopBefore.waits).toEqual([expect.objectContaining({ nodeId: 'wait_sellers', event: 'seller.responded' })]);
    const delay = async (id: string) =>
      (await h.t.service.ctx.db.query('SELECT id, node_id, due_at FROM timers WHERE order_id = $1 AND kind = $2 AND fired_at IS NULL AND cancelled_at IS NULL', [id, 'wait.timeout'])).rows;
    const [returnTimer] = await delay(returning);
    expect(returnTimer).toMatchObject({ node_id: 'wait_returns' });

    expect(await publishFlow(h.t, FLOW, nextVersion(false))).toBe(2);
    expect(await publishFlow(h.t, FLOW, nextVersion(true))).toBe(3);
    const mapping = { wait_returns: 'return_period' };
    const dry = (await h.t.call('POST', `/api/v1/flows/${FLOW}/migrations`, { fromVersion: 1, toVersion: 2, mapping, dryRun: true })).body;
    expect(dry.movable).toEqual(expect.arrayContaining([looping, failing, returning]));
    // Without the mapping the order in the return window has no delay to stand at.
    const unmapped = (await h.t.call('POST', `/api/v1/flows/${FLOW}/migrations`, { fromVersion: 1, toVersion: 2, orderIds: [returning], dryRun: true })).body;
    expect(unmapped.refused).toEqual([{ orderId: returning, reason: 'Node "wait_returns" has no counterpart of type wait.delay in version 2 (a node of that id is not in it)' }]);

    await move({ fromVersion: 1, toVersion: 2, mapping, orderIds: [looping, returning] });
    await move({ fromVersion: 1, toVersion: 3, orderIds: [failing] });

    // In the loop: the same wait (since, deadline), the pass counted, then the answer runs the new step.
    const loopMoved = await live(looping);
    expect(loopMoved.order.flowVersion).toBe(2);
    expect(loopMoved.waits).toEqual(loopBefore.waits);
    expect(loopMoved.nodes.acceptance_loop.runs).toBe(loopBefore.nodes.acceptance_loop.runs);
    expect((await answer(looping, 'seller_bolt')).body).toEqual({ delivered: true, nodeId: 'wait_sellers' });
    const accepted = await live(looping);
    expect(accepted.nodes.note_answer).toMatchObject({ status: 'succeeded', runs: 1 });
    expect(accepted.nodes.record_answer.branches).toEqual(['pending', 'accepted']);
    expect(accepted.waits).toEqual([]);
    expect(accepted.status).toBe('waiting');
    expect(Object.keys(accepted.nodes)).toContain('return_period');

    // A failure after the move: every completed step with an undo is undone, latest completion first, across the move.
    expect((await answer(failing, 'seller_acme')).body).toEqual({ delivered: true, nodeId: 'wait_sellers' });
    const failed = await settled(failing, 'failed');
    const undone = failed.timeline.filter((x: any) => x.kind === 'node.rolled_back').map((x: any) => x.nodeId);
    const rolledBack = Object.entries(failed.nodes as Record<string, { status: string }>)
      .filter(([, r]) => r.status === 'rolled_back')
      .map(([id]) => id);
    expect(undone).toEqual(expect.arrayContaining(['authorize']));
    expect([...undone].sort()).toEqual([...rolledBack].sort());
    const doneAt = (id: string) => failed.timeline.findIndex((x: any) => x.kind === 'node.succeeded' && x.nodeId === id);
    expect(undone.map(doneAt)).toEqual(undone.map(doneAt).sort((a: number, b: number) => b - a));
    expect(failed.nodes.note_answer.status).toBe('failed');

    // The return window: its timer renamed, same id and due time; nothing fires a second early, it fires at its time.
    expect(await delay(returning)).toEqual([{ ...returnTimer, node_id: 'return_period' }]);
    expect((await live(returning)).timeline.at(-1)).toMatchObject({ kind: 'order.moved', message: 'Moved from version 1 to version 2', nodeId: 'return_period' });
    await h.t.advance(Number(returnTimer.due_at) - h.t.service.ctx.clock.now() - 1_000);
    expect((await live(returning)).status).toBe('waiting');
    await h.t.advance(2_000);
    const completed = await settled(returning, 'completed');
    expect(completed.nodes.return_period.endedAt).toBeGreaterThanOrEqual(Number(returnTimer.due_at));
    expect(completed.nodes.return_period.endedAt).toBeLessThan(Number(returnTimer.due_at) + 2_000);
    expect(completed.nodes.payout.status).toBe('succeeded');
    expect(returnBefore.order.flowVersion).toBe(1);
  });
});
