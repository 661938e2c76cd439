// What one order adds to its flow's stats (src/orders/flow-stats-fold.ts): ends read off entries and records, durations, loops,
// edges, active nodes, cut runs, continue-as-new, and folding the same state again adding nothing.
import { describe, expect, it } from 'vitest';
import { edgeKeyOf, edgeOf, foldOrder, type FoldResult, type SeenOrder, type StatsGraph } from '../../../src/orders/flow-stats-fold.js';
import { emptyNodeRecord, type NodeRecord } from '../../../src/engine/runtime/node-record.js';
import type { TimelineEntry } from '../../../src/engine/runtime/timeline.js';
import type { NodeKind } from '../../../src/engine/node-type.js';

/** start -> loop (logic.loop) -> ask (wait) -> record (step) -> loop | done; record fails to `oops` when it fails. */
function graph(): StatsGraph {
  const kinds = new Map<string, NodeKind>([
    ['start', 'trigger'],
    ['loop', 'logic'],
    ['ask', 'wait'],
    ['record', 'step'],
    ['done', 'end'],
    ['oops', 'end'],
    ['again', 'continue'],
  ]);
  const edges: [string, string, string][] = [
    ['start', 'loop', 'ok'],
    ['loop', 'ask', 'next'],
    ['loop', 'done', 'exhausted'],
    ['ask', 'record', 'received'],
    ['record', 'loop', 'pending'],
    ['record', 'done', 'accepted'],
    ['record', 'oops', 'failed'],
    ['record', 'again', 'repeat'],
  ];
  return { kinds, failureBranches: new Map([['record', 'failed']]), targets: new Map(edges.map(([f, t, b]) => [edgeOf(f, b), t])) };
}

const rec = (nodeId: string, r: Partial<NodeRecord>): NodeRecord => ({ ...emptyNodeRecord(nodeId), ...r });
const records = (...rs: NodeRecord[]) => new Map(rs.map((r) => [r.nodeId, r]));
const entry = (at: number, kind: string, nodeId: string | null, data: Record<string, unknown> | null = null): TimelineEntry => ({ at, kind, message: kind, nodeId, data });
const succeeded = (at: number, nodeId: string, branch: string) => entry(at, 'node.succeeded', nodeId, { branch });
const edges = (r: FoldResult) => Object.fromEntries([...r.edges].map(([k, n]) => [k.split('\u0000').join('>'), n]));
const nodes = (r: FoldResult) => Object.fromEntries([...r.nodes].map(([id, d]) => [id, d]));

describe('foldOrder', () => {
  it('a wait counted over two passes: active while it waits, its duration from its record when it ends, the edge it left by', () => {
    const g = graph();
    const first = foldOrder(g, null, {
      status: 'waiting',
      generation: 1,
      records: records(rec('start', { status: 'succeeded', runs: 1, startedAt: 100, endedAt: 103, branches: ['ok'] }), rec('loop', { status: 'succeeded', runs: 1, startedAt: 103, endedAt: 103, branches: ['next'] }), rec('ask', { status: 'waiting', runs: 1, startedAt: 104 })),
    }, [succeeded(103, 'start', 'ok'), entry(104, 'wait.opened', 'ask')]);
    expect(nodes(first)).toEqual({
      start: { runs: 1, succeeded: 1, failed: 0, durations: [3] },
      loop: { runs: 1, succeeded: 1, failed: 0, durations: [0] },
    });
    expect(edges(first)).toEqual({ 'start>loop>ok': 1, 'loop>ask>next': 1 });
    expect([...first.active]).toEqual([['ask', 1]]);
    expect(first.status).toEqual({ from: null, to: 'waiting' });

    // Folding the same state again adds nothing (the worker read a chunk twice, or restarted).
    const again = foldOrder(g, first.seen, { status: 'waiting', generation: 1, records: records(rec('start', { status: 'succeeded', runs: 1, startedAt: 100, endedAt: 103, branches: ['ok'] }), rec('loop', { status: 'succeeded', runs: 1, startedAt: 103, endedAt: 103, branches: ['next'] }), rec('ask', { status: 'waiting', runs: 1, startedAt: 104 })) }, []);
    expect([again.nodes.size, again.edges.size, again.active.size, again.status]).toEqual([0, 0, 0, null]);

    const second = foldOrder(g, first.seen, {
      status: 'completed',
      generation: 1,
      records: records(
        rec('start', { status: 'succeeded', runs: 1, startedAt: 100, endedAt: 103, branches: ['ok'] }),
        rec('loop', { status: 'succeeded', runs: 1, startedAt: 103, endedAt: 103, branches: ['next'] }),
        rec('ask', { status: 'succeeded', runs: 1, startedAt: 104, endedAt: 5_104, branches: ['received'] }),
        rec('record', { status: 'succeeded', runs: 1, startedAt: 5_105, endedAt: 5_107, branches: ['accepted'] }),
        rec('done', { status: 'succeeded', runs: 1, startedAt: 5_107, endedAt: 5_107 }),
      ),
    }, [succeeded(5_104, 'ask', 'received'), succeeded(5_107, 'record', 'accepted'), entry(5_107, 'order.completed', null)]);
    expect(nodes(second)).toEqual({
      ask: { runs: 1, succeeded: 1, failed: 0, durations: [5_000] },
      record: { runs: 1, succeeded: 1, failed: 0, durations: [2] },
      done: { runs: 1, succeeded: 1, failed: 0, durations: [0] },
    });
    expect(edges(second)).toEqual({ 'ask>record>received': 1, 'record>done>accepted': 1 });
    expect([...second.active]).toEqual([['ask', -1]]);
    expect(second.status).toEqual({ from: 'waiting', to: 'completed' });
  });

  it('a loop that went round twice between two passes: every run counted, waits timed from their wait.opened, the loop node by its record', () => {
    const g = graph();
    const seen: SeenOrder = { status: 'waiting', generation: 1, nodes: { start: { r: 1, n: 1 }, loop: { r: 1, n: 1, b: 1 }, ask: { r: 1, n: 0, a: 1, s: 1_000 } } };
    const r = foldOrder(g, seen, {
      status: 'waiting',
      generation: 1,
      records: records(
        rec('start', { status: 'succeeded', runs: 1, startedAt: 0, endedAt: 1, branches: ['ok'] }),
        rec('loop', { status: 'succeeded', runs: 3, startedAt: 3_001, endedAt: 3_001, branches: ['next'] }),
        rec('ask', { status: 'waiting', runs: 3, startedAt: 3_002 }),
        rec('record', { status: 'succeeded', runs: 2, startedAt: 3_000, endedAt: 3_001, branches: ['pending'] }),
      ),
    }, [
      succeeded(2_000, 'ask', 'received'),
      succeeded(2_010, 'record', 'pending'),
      entry(2_011, 'wait.opened', 'ask'),
      succeeded(2_900, 'ask', 'received'),
      succeeded(3_001, 'record', 'pending'),
      entry(3_002, 'wait.opened', 'ask'),
    ]);
    expect(nodes(r)).toEqual({
      ask: { runs: 2, succeeded: 2, failed: 0, durations: [1_000, 889] },
      // The first run of `record` left no start behind (a step's start is in its record only): counted, not timed.
      record: { runs: 2, succeeded: 2, failed: 0, durations: [1] },
      loop: { runs: 2, succeeded: 2, failed: 0, durations: [0, 0] },
    });
    expect(edges(r)).toEqual({ 'ask>record>received': 2, 'record>loop>pending': 2, 'loop>ask>next': 2 });
    // Still waiting at `ask`: it stays active once (no change).
    expect(r.active.size).toBe(0);
    expect(r.seen.nodes.ask).toEqual({ r: 3, n: 2, a: 1, s: 3_002, b: 0 });
  });

  it('a loop node that ran out: the repeated branch for the earlier runs, the new one for the last', () => {
    const g = graph();
    const seen: SeenOrder = { status: 'waiting', generation: 1, nodes: { loop: { r: 1, n: 1, b: 1 } } };
    const r = foldOrder(g, seen, {
      status: 'completed',
      generation: 1,
      records: records(rec('loop', { status: 'succeeded', runs: 3, startedAt: 9, endedAt: 9, branches: ['next', 'exhausted'] }), rec('done', { status: 'succeeded', runs: 1, startedAt: 9, endedAt: 9 })),
    }, [entry(9, 'order.completed', null)]);
    expect(edges(r)).toEqual({ 'loop>ask>next': 1, 'loop>done>exhausted': 1 });
    expect(r.nodes.get('loop')).toMatchObject({ runs: 2, succeeded: 2 });
  });

  it('a failed step: counted failed, its failure edge taken; an order cancelled while waiting: the wait counted as a run cut short', () => {
    const g = graph();
    const failed = foldOrder(g, { status: 'running', generation: 1, nodes: { record: { r: 1, n: 0, a: 1, s: 50 } } }, {
      status: 'completed',
      generation: 1,
      records: records(rec('record', { status: 'failed', runs: 1, attempt: 3, startedAt: 50, endedAt: 7_050, error: 'boom' }), rec('oops', { status: 'succeeded', runs: 1, startedAt: 7_050, endedAt: 7_050 })),
    }, [entry(7_050, 'node.failed', 'record', { attempt: 3, terminal: false })]);
    expect(nodes(failed).record).toEqual({ runs: 1, succeeded: 0, failed: 1, durations: [7_000] });
    expect(edges(failed)).toEqual({ 'record>oops>failed': 1 });

    const cancelled = foldOrder(g, { status: 'waiting', generation: 1, nodes: { ask: { r: 1, n: 0, a: 1, s: 10 } } }, {
      status: 'cancelled',
      generation: 1,
      records: records(rec('ask', { status: 'skipped', runs: 1, startedAt: 10, endedAt: 500 })),
    }, [entry(500, 'order.cancelled', null)]);
    expect(nodes(cancelled)).toEqual({ ask: { runs: 1, succeeded: 0, failed: 0, durations: [] } });
    expect([...cancelled.active]).toEqual([['ask', -1]]);
    expect(cancelled.status).toEqual({ from: 'waiting', to: 'cancelled' });
  });

  it('continue-as-new: the old generation ends (its continue node run, its wait no longer active), the new one starts counting afresh', () => {
    const g = graph();
    const seen: SeenOrder = { status: 'waiting', generation: 1, nodes: { ask: { r: 1, n: 0, a: 1, s: 100 }, loop: { r: 1, n: 1, b: 1 } } };
    const r = foldOrder(g, seen, {
      status: 'waiting',
      generation: 2,
      records: records(
        rec('start', { status: 'succeeded', runs: 1, startedAt: 900, endedAt: 901, branches: ['ok'] }),
        rec('loop', { status: 'succeeded', runs: 1, startedAt: 901, endedAt: 901, branches: ['next'] }),
        rec('ask', { status: 'waiting', runs: 1, startedAt: 902 }),
      ),
    }, [
      succeeded(800, 'ask', 'received'),
      succeeded(850, 'record', 'repeat'),
      entry(850, 'run.continued', 'again', { instanceId: 'x' }),
      succeeded(901, 'start', 'ok'),
      entry(902, 'wait.opened', 'ask'),
    ]);
    expect(nodes(r)).toMatchObject({
      ask: { runs: 1, succeeded: 1, durations: [700] },
      record: { runs: 1, succeeded: 1, durations: [] },
      again: { runs: 1, succeeded: 1, durations: [0] },
      start: { runs: 1, succeeded: 1, durations: [1] },
      loop: { runs: 1, succeeded: 1, durations: [0] },
    });
    expect(edges(r)).toMatchObject({ 'ask>record>received': 1, 'record>again>repeat': 1, 'start>loop>ok': 1, 'loop>ask>next': 1 });
    // -1 for generation 1's wait, +1 for generation 2's: no change in the count.
    expect(r.active.get('ask') ?? 0).toBe(0);
    expect(r.seen).toMatchObject({ generation: 2, nodes: { ask: { r: 1, n: 0, a: 1, s: 902 } } });
    expect(edgeKeyOf('a', 'b', 'c')).toBe('a\u0000b\u0000c');
  });
});
