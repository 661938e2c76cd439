// Moving a run to another flow version (runtime contract 15), pure: moveRun's verdicts and refusals, and decide going on with a
// moved run: the new step runs, waits and timers keep their times, a renamed call keeps its Idempotency-Key, rollback undoes all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledFlow } from '../../../src/engine/compiler.js';
import type { Graph, GraphEdge, GraphNode } from '../../../src/engine/graph.js';
import { moveRun, type MovedRun, type MoveTarget, type MoveVerdict } from '../../../src/engine/migration/move-run.js';
import type { Effect } from '../../../src/engine/run/effects.js';
import type { EffectResult } from '../../../src/engine/run/run-input.js';
import { openRunState } from '../../../src/engine/run/run-state.js';
import { undoBody } from '../../../src/engine/run/undo-body.js';
import { isFinished, type OrderRow } from '../../../src/engine/runtime/order-row.js';
import { seededRandom } from '../../resilience/support/seed.js';
import { CALL_REQUEST, compile, okAnswer, PureRun, T0, undone, type Script } from './decide-driver.js';

const HOUR = 3_600_000;

/** The run's order row with its snapshot, as the lock read hands it to a move. */
function orderRow(run: PureRun): OrderRow {
  const { snapshot } = run.state;
  return { ...run.state.order, snapshot: snapshot && { value: snapshot.value, context: snapshot.context } };
}

function target(run: PureRun, to: CompiledFlow, mapping: Record<string, string> = {}, toVersion = 2): MoveTarget {
  return { flowId: 'test-flow', fromVersion: run.state.order.flowVersion, toVersion, from: run.flow, to, mapping };
}

function verdict(run: PureRun, to: CompiledFlow, mapping: Record<string, string> = {}, at = run.now): MoveVerdict {
  const timers = [...run.timers.values()].map((t) => ({ id: t.id, kind: t.kind, nodeId: t.nodeId ?? null, run: t.run ?? null, dueAt: t.dueAt }));
  return moveRun(target(run, to, mapping), { order: orderRow(run), nodes: run.state.nodes, waits: run.state.waits, holds: run.state.holds, timers }, at);
}

function moved(v: MoveVerdict): MovedRun {
  if ('refused' in v) throw new Error(`refused: ${v.refused}`);
  return v.moved;
}

/** The run on the new version as the next command's lock read opens it: the moved state, its timers renamed, the same clock and script. */
function reopen(run: PureRun, to: CompiledFlow, m: MovedRun, toVersion = 2): PureRun {
  const order = { ...orderRow(run), flowVersion: toVersion, snapshot: m.snapshot };
  const next = new PureRun(to, run.script, openRunState(to, order, m.nodes, m.waits, m.holds));
  next.now = run.now;
  const renamed = new Map(m.timers.map((t) => [t.id, t.nodeId]));
  for (const [id, timer] of run.timers) next.timers.set(id, renamed.has(id) ? { ...timer, nodeId: renamed.get(id) } : timer);
  for (const [id, call] of run.calls) next.calls.set(id, call);
  return next;
}

const node = (id: string, type: string, params?: Record<string, unknown>): GraphNode => ({ id, type, ...(params ? { params } : {}) });
const edge = (from: string, to: string, branch?: string): GraphEdge => ({ from, to, ...(branch ? { branch } : {}) });

/** start → s1, s2 (undoable) → wait (an event wait with a 2 h deadline) → s3 (undoable) → done. */
function eventFlow(extra: { after?: boolean; event?: string; timeoutWired?: boolean } = {}): Graph {
  const { after = false, event = 'goods.received', timeoutWired = true } = extra;
  const nodes = [
    node('start', 'trigger.api'),
    node('s1', 'test.undo'),
    node('s2', 'test.undo'),
    node('wait', 'wait.event', timeoutWired ? { event, timeout: '2h' } : { event }),
    node('s3', 'test.undo'),
    node('done', 'end', { outcome: 'completed' }),
  ];
  if (timeoutWired) nodes.push(node('late', 'end', { outcome: 'failed', reason: 'Too late' }));
  const edges = [edge('start', 's1'), edge('s1', 's2'), edge('s2', 'wait'), edge('wait', after ? 'added' : 's3', 'received'), edge('s3', 'done')];
  if (timeoutWired) edges.push(edge('wait', 'late', 'timeout'));
  // The new version adds a step after the wait.
  if (after) {
    nodes.push(node('added', 'test.undo'));
    edges.push(edge('added', 's3'));
  }
  return { nodes, edges };
}

/** External steps call out and take a 2xx answer as done, any other as a failure that may pass; other steps succeed. */
const calling: Script = {
  step: (effect) => {
    if (effect.phase === 'run') return { type: 'stepCalled', request: CALL_REQUEST };
    return effect.answer.status === 200 ? { type: 'stepDone', result: { branch: 'ok' } } : { type: 'stepFailed', failure: { message: `HTTP ${effect.answer.status}`, terminal: false } };
  },
};

/** Steps named in `failing` fail terminally on every attempt; the others succeed. */
const failing = (...ids: string[]): Script => ({
  step: (effect) => (ids.includes(effect.nodeId) ? { type: 'stepFailed', failure: { message: `${effect.nodeId} broke`, terminal: true } } : { type: 'stepDone', result: { branch: 'ok' } }),
});

describe('moveRun: an order at rest moves and goes on on the new graph', () => {
  it('an event wait with its deadline part-way elapsed moves to a version that adds a step after it: wait and timer unchanged, the event runs the new step', () => {
    const run = new PureRun(compile(eventFlow()), failing());
    run.command({ type: 'start' });
    run.now = T0 + HOUR;
    const [wait] = run.state.waits;
    const [timer] = [...run.timers.values()];
    expect(wait).toMatchObject({ nodeId: 'wait', since: T0, deadline: T0 + 2 * HOUR });
    const v2 = compile(eventFlow({ after: true }), 'test-flow@2');
    const m = moved(verdict(run, v2));
    expect(m.snapshot).toEqual({ value: 'wait', context: { passes: {} } });
    expect(m.waits).toEqual(run.state.waits);
    expect(m.holds).toEqual([]);
    expect(m.renamed).toEqual({});
    expect(m.timers).toEqual([]);
    expect(m.note).toMatchObject({ kind: 'order.moved', message: 'Moved from version 1 to version 2', nodeId: 'wait', at: T0 + HOUR });
    expect([...m.nodes.keys()].sort()).toEqual([...run.state.nodes.keys()].sort());

    const next = reopen(run, v2, m);
    expect(next.timers.get(timer!.id)).toEqual(timer);
    const effects = next.command({ type: 'event', event: 'goods.received', payload: {} });
    expect(effects.filter((e) => e.type === 'runStep').map((e) => (e as { nodeId: string }).nodeId)).toEqual(['added', 's3']);
    expect(next.state.order.status).toBe('completed');
  });

  it('the deadline fires at its original time on the new graph and takes the same wired branch', () => {
    const run = new PureRun(compile(eventFlow()), failing());
    run.command({ type: 'start' });
    run.now = T0 + HOUR;
    const v2 = compile(eventFlow({ after: true }), 'test-flow@2');
    const next = reopen(run, v2, moved(verdict(run, v2)));
    expect(next.advance(HOUR - 1)).toEqual([]);
    next.advance(1);
    expect(next.state.order).toMatchObject({ status: 'failed', reason: 'Too late' });
    expect(next.state.nodes.get('wait')).toMatchObject({ status: 'succeeded', endedAt: T0 + 2 * HOUR });
  });

  it('a failure after the move undoes every step completed before and after it, in reverse', () => {
    const run = new PureRun(compile(eventFlow()), failing('s3'));
    run.command({ type: 'start' });
    const v2 = compile(eventFlow({ after: true }), 'test-flow@2');
    const next = reopen(run, v2, moved(verdict(run, v2)));
    const effects = next.command({ type: 'event', event: 'goods.received', payload: {} });
    expect(undone(effects)).toEqual(['added', 's2', 's1']);
    expect(next.state.order.status).toBe('failed');
  });

  it('a renamed held external step keeps the ids it called out with: the retry carries the same Idempotency-Key and call ids go on counting', () => {
    const graph = (id: string): Graph => ({
      nodes: [node('start', 'trigger.api'), node('s1', 'test.undo'), node(id, 'test.external', { onFailure: 'hold' }), node('done', 'end', { outcome: 'completed' })],
      edges: [edge('start', 's1'), edge('s1', id), edge(id, 'done')],
    });
    const run = new PureRun(compile(graph('charge')), {
      step: (effect, r) => (r.flow.nodes.get(effect.nodeId)!.def.type === 'test.external' ? calling.step!(effect, r) : { type: 'stepDone', result: { branch: 'ok' } }),
    });
    run.command({ type: 'start' });
    // Both attempts answer 503: the step is held.
    run.advance(60_000, (call) => ({ ...okAnswer(call), status: 503 }));
    run.advance(60_000, (call) => ({ ...okAnswer(call), status: 503 }));
    expect(run.state.holds.map((h) => h.nodeId)).toEqual(['charge']);
    const before = run.log.flatMap((e) => (e.type === 'call' ? [e.call] : []));
    expect(before.map((c) => c.attempt)).toEqual([1, 2]);

    const v2 = compile(graph('payment'), 'test-flow@2');
    const m = moved(verdict(run, v2, { charge: 'payment' }));
    expect(m.renamed).toEqual({ charge: 'payment' });
    expect(m.nodes.get('payment')).toMatchObject({ nodeId: 'payment', idAs: 'charge', status: 'failed', attempt: 2 });
    expect(m.holds.map((h) => h.nodeId)).toEqual(['payment']);
    expect(m.snapshot.value).toBe('payment');

    const next = reopen(run, v2, m);
    const effects = next.command({ type: 'resolveHold', nodeId: 'payment', action: 'retry', by: 'ops', note: null });
    const [retry] = effects.flatMap((e) => (e.type === 'call' ? [e.call] : []));
    expect(retry).toMatchObject({ nodeId: 'payment', attempt: 3, idempotencyKey: before[0]!.idempotencyKey, id: before[0]!.id.replace(/:1$/, ':3') });
    next.advance(60_000);
    expect(next.state.order.status).toBe('completed');
    // The run that called out under the old id keeps it to the end (its undo's key is made with it too).
    expect(next.state.nodes.get('payment')?.idAs).toBe('charge');
  });

  it('a step waiting for its retry timer rests too: renamed, its timer keeps id and due time and runs the step on the new graph', () => {
    const graph = (id: string): Graph => ({
      nodes: [node('start', 'trigger.api'), node(id, 'test.undo'), node('done', 'end', { outcome: 'completed' })],
      edges: [edge('start', id), edge(id, 'done')],
    });
    let fails = 1;
    const run = new PureRun(compile(graph('a')), { step: () => (fails-- > 0 ? { type: 'stepFailed', failure: { message: 'flaked', terminal: false } } : { type: 'stepDone', result: { branch: 'ok' } }) });
    run.command({ type: 'start' });
    expect(run.state.order.status).toBe('running');
    const [timer] = [...run.timers.values()];
    const v2 = compile(graph('b'), 'test-flow@2');
    const m = moved(verdict(run, v2, { a: 'b' }));
    expect(m.timers).toEqual([{ id: timer!.id, kind: 'step.retry', nodeId: 'b', run: 1, dueAt: timer!.dueAt }]);
    const next = reopen(run, v2, m);
    next.advance(1_000);
    expect(next.state.order.status).toBe('completed');
    expect(next.state.nodes.get('b')).toMatchObject({ status: 'succeeded', attempt: 2 });
  });
});

describe('moveRun refuses, with a reason naming the node', () => {
  const atWait = () => {
    const run = new PureRun(compile(eventFlow()), failing());
    run.command({ type: 'start' });
    return run;
  };
  const refusal = (run: PureRun, graph: Graph, mapping: Record<string, string> = {}) => {
    const v = verdict(run, compile(graph, 'test-flow@3'), mapping);
    return 'refused' in v ? v.refused : null;
  };
  const without = (graph: Graph, id: string, type?: string): Graph => ({
    nodes: graph.nodes.map((n) => (n.id === id ? (type ? { ...n, type, params: {} } : { ...n, id: `${id}_x` }) : n)),
    edges: graph.edges.map((e) => (type ? e : { ...e, from: e.from === id ? `${id}_x` : e.from, to: e.to === id ? `${id}_x` : e.to })),
  });

  it('a waiting node with no counterpart of the same type', () => {
    expect(refusal(atWait(), without(eventFlow(), 'wait'))).toBe('Node "wait" has no counterpart of type wait.event in version 2 (a node of that id is not in it)');
  });

  it('an event wait whose counterpart waits for another event', () => {
    expect(refusal(atWait(), eventFlow({ event: 'other.event' }))).toBe('Node "wait" waits for goods.received; its counterpart "wait" in version 2 waits for other.event');
  });

  it('a parked node whose counterpart leaves a branch it had wired without an edge', () => {
    const graph = (failedWired: boolean): Graph => ({
      nodes: [node('start', 'trigger.api'), node('a', 'test.undo'), node('done', 'end', { outcome: 'completed' }), ...(failedWired ? [node('out', 'end', { outcome: 'failed', reason: 'Out' })] : [])],
      edges: [edge('start', 'a'), edge('a', 'done'), ...(failedWired ? [edge('a', 'out', 'failed')] : [])],
    });
    // The step waits for its retry timer.
    const run = new PureRun(compile(graph(true)), { step: () => ({ type: 'stepFailed', failure: { message: 'flaked', terminal: false } }) });
    run.command({ type: 'start' });
    expect(refusal(run, graph(false))).toBe('Node "a": branch "failed" has an edge in version 1 but none from "a" in version 2');
    expect(refusal(run, graph(true))).toBeNull();
  });

  it('a completed step with no counterpart, or mapped to a node of another type', () => {
    expect(refusal(atWait(), without(eventFlow(), 's2'))).toBe('Node "s2" has no counterpart of type test.undo in version 2 (a node of that id is not in it)');
    expect(refusal(atWait(), without(eventFlow(), 's2', 'test.step'))).toBe('Node "s2" has no counterpart of type test.undo in version 2 (a node of that id is of type test.step)');
    expect(refusal(atWait(), eventFlow(), { s1: 'late' })).toBe('Node "s1" has no counterpart of type test.undo in version 2 ("late" is of type end)');
  });

  it('two nodes mapped onto one', () => {
    expect(refusal(atWait(), eventFlow(), { s1: 's2' })).toBe('Nodes "s1" and "s2" both map to "s2" in version 2');
  });

  it('a running order (its call out), an ended one, one not started, and one on another version', () => {
    const external: Graph = { nodes: [node('start', 'trigger.api'), node('x', 'test.external'), node('done', 'end', { outcome: 'completed' })], edges: [edge('start', 'x'), edge('x', 'done')] };
    const running = new PureRun(compile(external), calling);
    running.command({ type: 'start' });
    expect(refusal(running, external)).toBe('Order is running (at node "x"): only orders at rest move');
    running.advance(1);
    expect(running.state.order.status).toBe('completed');
    expect(refusal(running, external)).toBe('Order is completed: only waiting orders move');
    expect(refusal(new PureRun(compile(external)), external)).toBe('Order has not started: only waiting orders move');
    const other = atWait();
    const v = moveRun({ ...target(other, compile(eventFlow(), 'test-flow@3')), fromVersion: 5 }, { order: orderRow(other), nodes: other.state.nodes, waits: other.state.waits, holds: [], timers: [] }, T0);
    expect(v).toEqual({ refused: 'Order is on version 1, not 5' });
  });
});

// ---- properties over generated flows ----------------------------------------------------------------

const KINDS = ['undo', 'plain', 'approval', 'event', 'delay', 'held', 'flaky'] as const;
type Kind = (typeof KINDS)[number];

/** A chain start → k0 → k1 → … → last (an undoable step that fails when told) → done, every wait's other branch to an End. */
function chain(kinds: readonly Kind[], suffix = ''): Graph {
  const id = (x: string) => (x === 'done' || x === 'out' ? x : `${x}${suffix}`);
  const ids = kinds.map((k, i) => `${k}_${i}`);
  const nodes: GraphNode[] = [node(id('start'), 'trigger.api')];
  const edges: GraphEdge[] = [edge(id('start'), id(ids[0] ?? 'last'))];
  kinds.forEach((kind, i) => {
    const me = id(ids[i]!);
    const next = id(ids[i + 1] ?? 'last');
    switch (kind) {
      case 'undo':
      case 'flaky':
        nodes.push(node(me, 'test.undo'));
        edges.push(edge(me, next));
        break;
      case 'plain':
        nodes.push(node(me, 'test.step'));
        edges.push(edge(me, next));
        break;
      case 'held':
        nodes.push(node(me, 'test.external', { onFailure: 'hold' }));
        edges.push(edge(me, next));
        break;
      case 'approval':
        nodes.push(node(me, 'human.approval', { timeout: '1d' }));
        edges.push(edge(me, next, 'approved'), edge(me, 'out', 'rejected'), edge(me, 'out', 'escalated'));
        break;
      case 'event':
        nodes.push(node(me, 'wait.event', { event: `evt.${i}`, timeout: '2h' }));
        edges.push(edge(me, next, 'received'), edge(me, 'out', 'timeout'));
        break;
      case 'delay':
        nodes.push(node(me, 'wait.delay', { duration: '30m' }));
        edges.push(edge(me, next));
        break;
    }
  });
  nodes.push(node(id('last'), 'test.undo'), node('done', 'end', { outcome: 'completed' }));
  if (edges.some((e) => e.to === 'out')) nodes.push(node('out', 'end', { outcome: 'declined', reason: 'Out' }));
  edges.push(edge(id('last'), 'done'));
  return { nodes, edges };
}

/**
 * One generated order: runs to its `moveAt`th rest (or its last), moves there to `to` (mapping old -> new ids), and goes on to
 * the end, where its last step fails when `failLast`. Answers the run before and after the move and the slices after it.
 */
function generated(kinds: readonly Kind[], seed: number, moveAt: number, to: (from: CompiledFlow) => { flow: CompiledFlow; mapping: Record<string, string> }, failLast: boolean) {
  const rnd = seededRandom(seed);
  const completed: string[] = [];
  const script: Script = {
    step: (effect, run) => {
      const { def } = run.flow.nodes.get(effect.nodeId)!;
      if (def.type === 'test.external' && effect.phase === 'run') return { type: 'stepCalled', request: CALL_REQUEST };
      if (effect.phase === 'answer' && effect.answer.status !== 200) return { type: 'stepFailed', failure: { message: 'HTTP 503', terminal: false } };
      const base = effect.nodeId.replace(/_v2$/, '');
      const fails = (base === 'last' && failLast) || (base.startsWith('flaky') && effect.attempt === 1);
      if (fails) return { type: 'stepFailed', failure: { message: `${effect.nodeId} broke`, terminal: base === 'last' } } satisfies EffectResult;
      completed.push(effect.nodeId);
      return { type: 'stepDone', result: { branch: 'ok' } };
    },
  };
  let run = new PureRun(compile(chain(kinds)), script);
  const after: Effect[] = [];
  let rests = 0;
  let movedRun: MovedRun | null = null;
  const rest = (effects: Effect[]) => {
    if (movedRun) after.push(...effects);
  };
  run.command({ type: 'start' });
  let before: PureRun | null = null;
  for (let round = 0; round < 60 && !isFinished(run.state.order.status); round++) {
    if (!movedRun && rests++ >= moveAt) {
      const { flow, mapping } = to(run.flow);
      const v = verdict(run, flow, mapping);
      // A step whose call is out is running, not at rest: the move waits for the next rest.
      if ('moved' in v) {
        before = run;
        movedRun = v.moved;
        run = reopen(run, flow, movedRun);
      } else expect(v.refused).toMatch(/^Order is running/);
    }
    const wait = run.state.waits[0];
    const held = run.state.holds[0];
    if (held) rest(run.command({ type: 'resolveHold', nodeId: held.nodeId, action: 'retry', by: 'sim', note: null }));
    else if (wait?.kind === 'approval') rest(run.command({ type: 'approval', nodeId: wait.nodeId, decision: 'approved', by: 'sim', note: null }));
    else if (wait?.kind === 'event' && rnd() < 0.8) rest(run.command({ type: 'event', event: wait.event!, payload: {} }));
    else {
      const due = run.nextDue(Number.MAX_SAFE_INTEGER);
      if (!due) break;
      // An external step's first two attempts answer 503 half the time (its retries run out: held), later ones 200.
      rest(run.fire(due, (call) => ({ ...okAnswer(call), status: call.purpose === 'step' && call.attempt <= 2 && rnd() < 0.5 ? 503 : 200 })));
    }
  }
  return { before, after: run, movedRun, effects: after, completed };
}

describe('moveRun over generated flows (fast-check)', () => {
  const kindsArb = fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 7 });

  it('moving to an identical version changes nothing but the version', () => {
    fc.assert(
      fc.property(kindsArb, fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat({ max: 8 }), (kinds, seed, moveAt) => {
        const { before, movedRun } = generated(kinds, seed, moveAt, () => ({ flow: compile(chain(kinds), 'test-flow@2'), mapping: {} }), false);
        if (!before || !movedRun) return;
        const { snapshot } = before.state;
        expect(movedRun.snapshot).toEqual({ value: snapshot!.value, context: snapshot!.context });
        expect(movedRun.nodes).toEqual(before.state.nodes);
        expect(movedRun.waits).toEqual(before.state.waits);
        expect(movedRun.holds).toEqual(before.state.holds);
        expect(movedRun.renamed).toEqual({});
        expect(movedRun.timers).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('a moved order (every node renamed) still undoes every completed step in reverse when a later step fails', () => {
    let checked = 0;
    fc.assert(
      fc.property(kindsArb, fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat({ max: 8 }), (kinds, seed, moveAt) => {
        const renamedFlow = compile(chain(kinds, '_v2'), 'test-flow@2');
        const mapping = Object.fromEntries([...compile(chain(kinds)).nodes.keys()].filter((id) => id !== 'done' && id !== 'out').map((id) => [id, `${id}_v2`]));
        const { before, after, effects, completed } = generated(kinds, seed, moveAt, () => ({ flow: renamedFlow, mapping }), true);
        if (!before) return;
        expect(after.state.order.status).toMatch(/^(failed|declined)$/);
        if (after.state.order.status === 'failed') checked += 1;
        // The steps that completed (before the move under their old ids), latest first, under their new ids, those with an undo.
        const owed = completed.map((id) => mapping[id] ?? id).filter((id) => {
          const { def, params } = after.flow.nodes.get(id)!;
          return undoBody(def, params, 'compensate') !== undefined;
        });
        expect(undone(effects)).toEqual(owed.reverse());
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});
