// decide over generated graphs (fast-check): every run ends or waits, rollback undoes exactly the completed steps in reverse,
// repeated inputs are harmless, continue-as-new resets the pass counters (issue 29, runtime contract section 5), and a held
// run neither ends nor undoes anything until a retry or a rollback resolves it (issue 33, contract section 16).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledFlow } from '../../../src/engine/compiler.js';
import type { Graph, GraphEdge, GraphNode } from '../../../src/engine/graph.js';
import type { ExternalAnswer } from '../../../src/engine/node-type.js';
import { decide } from '../../../src/engine/run/decide.js';
import type { Effect, UndoMode } from '../../../src/engine/run/effects.js';
import type { EffectResult } from '../../../src/engine/run/run-input.js';
import { currentNode } from '../../../src/engine/run/run-state.js';
import { undoBody } from '../../../src/engine/run/undo-body.js';
import { isFinished } from '../../../src/engine/runtime/run-row.js';
import type { CallRow } from '../../../src/engine/runtime/order-calls.js';
import type { NewTimer } from '../../../src/engine/scheduler/timer-store.js';
import { seededRandom } from '../../resilience/support/seed.js';
import { CALL_REQUEST, compile, notes, okAnswer, PureRun, undone } from './decide-driver.js';

const KINDS = ['undo', 'keep', 'plain', 'choice', 'external', 'approval', 'event', 'delay', 'loop', 'held', 'held_external'] as const;
type Kind = (typeof KINDS)[number];

const ENDS: GraphNode[] = [
  { id: 'end_completed', type: 'end', params: { outcome: 'completed' } },
  { id: 'end_declined', type: 'end', params: { outcome: 'declined', reason: 'Declined' } },
  { id: 'end_failed', type: 'end', params: { outcome: 'failed', reason: 'Failed' } },
  { id: 'end_cancelled', type: 'end', params: { outcome: 'cancelled', reason: 'Cancelled' } },
];

/**
 * A valid flow from a list of node kinds and a seed: node i's first branch leads to node i + 1 (so
 * every node is reachable), its other branches forward, to an End, back to a loop node at or before
 * it (loops only through a pass-counting node, whose `exhausted` ends the run), or from a wait to a
 * continue-as-new node.
 */
function generatedGraph(kinds: readonly Kind[], seed: number): Graph {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const ids = kinds.map((kind, i) => `${kind}_${i}`);
  const nodes: GraphNode[] = [{ id: 'start', type: 'trigger.api' }];
  const edges: GraphEdge[] = [{ from: 'start', to: ids[0]! }];
  const endIds = ENDS.map((e) => e.id);
  let usesContinue = false;
  kinds.forEach((kind, i) => {
    const id = ids[i]!;
    const next = ids[i + 1] ?? pick(endIds);
    const loopsBefore = ids.slice(0, i + 1).filter((_, j) => kinds[j] === 'loop');
    const other = (fromWait: boolean): string => {
      // A way back to a loop half the time there is one, so loops do go round.
      if (loopsBefore.length && rnd() < 0.5) return pick(loopsBefore);
      // A wait's other branch continues as new a quarter of the time (a subscription's next period).
      if (fromWait && rnd() < 0.25) {
        usesContinue = true;
        return 'again';
      }
      return pick([...ids.slice(i + 1), ...endIds]);
    };
    const wire = (branch: string | undefined, to: string) => edges.push(branch === undefined ? { from: id, to } : { from: id, to, branch });
    switch (kind) {
      case 'undo':
      case 'keep':
      case 'plain':
      case 'external':
        nodes.push({ id, type: { undo: 'test.undo', keep: 'test.keep', plain: 'test.step', external: 'test.external' }[kind] });
        wire('ok', next);
        if (rnd() < 0.4) wire('failed', other(false));
        break;
      case 'held':
      case 'held_external':
        // onFailure "hold": a failure no wired branch takes parks the run (a wired `failed` still wins, now and then).
        nodes.push({ id, type: kind === 'held' ? 'test.undo' : 'test.external', params: { onFailure: 'hold' } });
        wire('ok', next);
        if (rnd() < 0.15) wire('failed', other(false));
        break;
      case 'choice':
        nodes.push({ id, type: 'test.choice', params: { options: ['x', 'y'] } });
        wire('x', next);
        wire('y', other(false));
        break;
      case 'approval':
        nodes.push({ id, type: 'human.approval', params: { timeout: '1d' } });
        wire('approved', next);
        wire('rejected', other(true));
        wire('escalated', other(true));
        break;
      case 'event':
        nodes.push({ id, type: 'wait.event', params: { event: `evt.${i}`, timeout: '2h' } });
        wire('received', next);
        wire('timeout', other(true));
        break;
      case 'delay':
        nodes.push({ id, type: 'wait.delay', params: { duration: '30m' } });
        wire('next', next);
        break;
      case 'loop':
        nodes.push({ id, type: 'logic.loop', params: { maxPasses: 1 + Math.floor(rnd() * 3) } });
        wire('next', next);
        // Exhausted ends the run: a way back to a loop after its last pass could go round for ever.
        wire('exhausted', pick(endIds));
        break;
    }
  });
  const targets = new Set(edges.map((e) => e.to));
  nodes.push(...ENDS.filter((e) => targets.has(e.id)));
  if (usesContinue) nodes.push({ id: 'again', type: 'logic.continue' });
  return { nodes, edges };
}

/** The undo a rollback or cancel must make: steps whose latest run completed and that have an undo, latest completion first. */
function expectedUndo(completed: readonly string[], mode: UndoMode, flow: CompiledFlow): string[] {
  return [...completed].reverse().filter((id) => {
    const { def, params } = flow.nodes.get(id)!;
    return undoBody(def, params, mode) !== undefined;
  });
}

/** The timeline entries whose rules the generated runs must reach. */
const NOTED = new Set([
  'run.continued', 'node.retry', 'node.call', 'node.late_answer', 'node.undo_call', 'node.undo_retry', 'node.undo_failed', 'node.held', 'node.hold_retried',
  'node.hold_rolled_back',
]);

/** A call's answer: mostly 200 for a step's call; an undo's call meets outages (retried) and refusals more often. */
const answerBy =
  (rnd: () => number) =>
  (call: CallRow): ExternalAnswer => {
    const roll = rnd();
    const status = call.purpose === 'step' ? (roll < 0.7 ? 200 : roll < 0.85 ? 503 : 400) : roll < 0.35 ? 200 : roll < 0.75 ? 503 : 400;
    return { ...okAnswer(call), status };
  };

/** One simulated order over a generated flow: step outcomes, decisions, events, timers and cancels from the seed. Answers what happened in it. */
function simulate(kinds: readonly Kind[], seed: number): Set<string> {
  const seen = new Set<string>();
  const flow = compile(generatedGraph(kinds, seed));
  const rnd = seededRandom(seed ^ 0x5bd1e995);
  /** Each step's character, drawn once: most pass, some flake once, some always fail (retries run out), some refuse, some are erratic. */
  const characters = new Map<string, number>();
  const failureOf = (nodeId: string, attempt: number): 'flaked' | 'refused' | null => {
    if (!characters.has(nodeId)) characters.set(nodeId, rnd());
    const character = characters.get(nodeId)!;
    if (character < 0.6) return null;
    if (character < 0.7) return attempt === 1 ? 'flaked' : null;
    if (character < 0.8) return 'flaked';
    if (character < 0.88) return 'refused';
    const roll = rnd();
    return roll < 0.3 ? 'flaked' : roll < 0.45 ? 'refused' : null;
  };
  /** By generation: steps whose latest run completed, in completion order (a step that starts again leaves it). */
  const completedIn = new Map<number, string[]>();
  const script = {
    step: (effect: { nodeId: string; attempt: number; phase: 'run' | 'answer' }, run: PureRun): EffectResult => {
      const { def } = run.flow.nodes.get(effect.nodeId)!;
      const generation = run.state.order.generation;
      let completed = completedIn.get(generation) ?? [];
      if (effect.attempt === 1 && effect.phase === 'run') completed = completed.filter((id) => id !== effect.nodeId);
      completedIn.set(generation, completed);
      if (def.type === 'test.external' && effect.phase === 'run') return { type: 'stepCalled', request: CALL_REQUEST };
      const fails = failureOf(effect.nodeId, effect.attempt);
      if (fails) return { type: 'stepFailed', failure: { message: `${fails} ${effect.nodeId}`, terminal: fails === 'refused' } };
      completed.push(effect.nodeId);
      return { type: 'stepDone', result: { branch: def.type === 'test.choice' ? (rnd() < 0.5 ? 'x' : 'y') : 'ok' } };
    },
    undo: (nodeId: string, _mode: UndoMode, run: PureRun): EffectResult => {
      if (rnd() < 0.2) return { type: 'undoFailed', message: `undo of ${nodeId} broke` };
      return { type: 'undone', call: run.flow.nodes.get(nodeId)!.def.type === 'test.external' ? CALL_REQUEST : null };
    },
    abandon: (): EffectResult => (rnd() < 0.8 ? { type: 'abandoned' } : { type: 'abandonFailed', message: 'release failed' }),
  };
  const run = new PureRun(flow, script);
  const cancelledTimers: NewTimer[] = [];
  let delivered: string | null = null;

  /** Checks what must hold after every slice, and that the slice's undos are exactly those owed. */
  const afterSlice = (effects: readonly Effect[], mode: UndoMode): void => {
    const { state } = run;
    expect(state.awaiting).toBeNull();
    expect(state.agenda).toEqual([]);
    const status = state.order.status;
    // Every run ends or waits: an unfinished order waits on an open wait, or on a timer of the node it stands at.
    if (!isFinished(status)) {
      const at = currentNode(state);
      if (state.holds.length) {
        // A held run waits at the failed step: nothing ended, nothing undone (checked below), no wait, nothing to wake it.
        expect(status).toBe('waiting');
        expect(state.holds.map((h) => h.nodeId)).toEqual([at]);
        expect(state.nodes.get(at!)?.status).toBe('failed');
        expect(state.waits).toEqual([]);
        expect([...run.timers.values()].filter((t) => t.kind === 'step.retry' || t.kind === 'wait.timeout')).toEqual([]);
        if (effects.some((e) => e.type === 'openHold')) seen.add('held');
      } else if (state.waits.length) {
        expect(status).toBe('waiting');
        expect(state.waits.map((w) => w.nodeId)).toEqual([at]);
      } else {
        expect(status).toBe('running');
        const wakes = [...run.timers.values()].filter((t) => t.nodeId === at && (t.kind === 'step.retry' || t.kind === 'call.perform'));
        expect(wakes.length, `order running at ${at} with nothing to wake it`).toBeGreaterThan(0);
      }
    }
    // Rollback undoes exactly the completed steps, latest first; a completed End undoes nothing.
    const undos = undone(effects);
    for (const e of effects) {
      if (e.type === 'undo') seen.add(`undo on ${mode}`);
      if (e.type === 'note' && NOTED.has(e.entry.kind)) seen.add(e.entry.kind);
      if (e.type === 'end') seen.add(`ended ${e.status}`);
    }
    const ended = effects.some((e) => e.type === 'end');
    if (ended) {
      const owed = status === 'completed' ? [] : expectedUndo(completedIn.get(state.order.generation) ?? [], mode, run.flow);
      expect(undos).toEqual(owed);
      for (const e of effects) if (e.type === 'undo') expect(e.mode).toBe(mode);
    } else expect(undos).toEqual([]);
    // Pass counters count this generation's passes only.
    const passes: Record<string, number> = {};
    for (const a of run.answered)
      if (a.generation === state.order.generation && a.effect.type === 'runStep' && a.result.type === 'stepDone' && a.result.result.branch === 'next' && run.flow.nodes.get(a.effect.nodeId)!.def.type === 'logic.loop')
        passes[a.effect.nodeId] = (passes[a.effect.nodeId] ?? 0) + 1;
    expect(state.snapshot?.context.passes ?? {}).toEqual(passes);
    // A continue-as-new in this slice: generation + 1, the input's instance id, records only of the new run.
    const continued = effects.flatMap((e, i) => (e.type === 'note' && e.entry.kind === 'run.continued' ? [i] : []));
    if (continued.length && !isFinished(status)) {
      const since = effects.slice(continued.at(-1)! + 1);
      const touched = new Set(since.flatMap((e) => (e.type === 'runStep' || e.type === 'openWait' ? [e.type === 'openWait' ? e.wait.nodeId : e.nodeId] : [])));
      expect(new Set(state.nodes.keys())).toEqual(touched);
      const note = effects[continued.at(-1)!] as Extract<Effect, { type: 'note' }>;
      expect(note.entry.data).toEqual({ instanceId: state.order.instanceId });
    }
    for (const e of effects) if (e.type === 'cancelTimer') cancelledTimers.push({ id: e.id, kind: 'wait.timeout', dueAt: 0 });
  };

  /** A repeated or late input (an old timer again, an event nobody waits for): the same state back, no effects. */
  const harmless = (): void => {
    const state = run.state;
    const old = [...run.fired, ...cancelledTimers].filter((t) => t.kind !== 'call.perform');
    const repeats = [
      ...old.map((t) => ({ type: 'timer' as const, timer: { id: t.id, kind: t.kind, nodeId: t.nodeId ?? null, run: t.run ?? null, payload: t.payload ?? { generation: state.order.generation } } })),
      { type: 'event' as const, event: 'evt.nobody', payload: {} },
      // No node is held at the trigger: a resolve there is for nothing.
      { type: 'resolveHold' as const, nodeId: 'start', action: 'retry' as const, by: 'sim', note: null },
    ];
    if (delivered && !state.waits.some((w) => w.event === delivered)) repeats.push({ type: 'event', event: delivered, payload: {} });
    for (const repeat of repeats) {
      const decision = decide(run.flow, state, { ...repeat, at: run.now, newInstanceId: 'never' });
      expect(decision.state, JSON.stringify(repeat)).toBe(state);
      expect(decision.effects).toEqual([]);
    }
  };

  afterSlice(run.command({ type: 'start' }), 'compensate');
  for (let round = 0; round < 25 && !isFinished(run.state.order.status); round++) {
    harmless();
    const wait = run.state.waits[0];
    const roll = rnd();
    // A cancel now and then, more often while a step's call is out (its answer then comes late).
    const callOut = [...run.calls.values()].some((c) => c.purpose === 'step');
    if (roll < (callOut ? 0.25 : 0.06)) {
      afterSlice(run.command({ type: 'cancel', reason: 'generated cancel' }), 'cancel');
      continue;
    }
    const held = run.state.holds[0];
    if (held && roll < 0.9) {
      afterSlice(run.command({ type: 'resolveHold', nodeId: held.nodeId, action: rnd() < 0.6 ? 'retry' : 'rollback', by: 'sim', note: null }), 'compensate');
      continue;
    }
    if (wait?.kind === 'approval' && roll < 0.6) {
      afterSlice(run.command({ type: 'approval', nodeId: wait.nodeId, decision: rnd() < 0.6 ? 'approved' : 'rejected', by: 'sim', note: null }), 'compensate');
      continue;
    }
    if (wait?.kind === 'event' && roll < 0.6) {
      delivered = wait.event;
      afterSlice(run.command({ type: 'event', event: wait.event!, payload: { round } }), 'compensate');
      continue;
    }
    const due = run.nextDue(Number.MAX_SAFE_INTEGER);
    if (!due) break;
    afterSlice(run.fire(due, answerBy(rnd)), 'compensate');
  }
  if (!isFinished(run.state.order.status)) afterSlice(run.command({ type: 'cancel', reason: 'end of simulation' }), 'cancel');
  harmless();
  expect(isFinished(run.state.order.status)).toBe(true);
  expect(run.state.waits).toEqual([]);
  expect(run.state.holds).toEqual([]);
  // After the end: undo calls still go out (their timers were written with the ending slice) and a step call that was
  // in flight answers late. Either only records: the outcome, the records and the snapshot stay as they are.
  const ended = run.state;
  for (let timer = run.nextDue(Number.MAX_SAFE_INTEGER); timer; timer = run.nextDue(Number.MAX_SAFE_INTEGER)) {
    const effects = run.fire(timer, answerBy(rnd));
    expect(effects.every((e) => e.type === 'note' || e.type === 'call')).toBe(true);
    for (const e of effects) if (e.type === 'note' && NOTED.has(e.entry.kind)) seen.add(e.entry.kind);
  }
  for (const call of [...run.calls.values()].filter((c) => c.purpose === 'step')) {
    const effects = run.command({ type: 'answer', call, answer: okAnswer(call) });
    expect(notes(effects)).toEqual([`node.late_answer: Late answer for ${call.nodeId} (attempt ${call.attempt}): HTTP 200; changed nothing`]);
    seen.add('node.late_answer');
  }
  expect(run.state.order).toEqual(ended.order);
  // The same record objects: the host writes no node record for these slices.
  expect(run.state.nodes.size).toBe(ended.nodes.size);
  for (const [id, rec] of run.state.nodes) expect(rec).toBe(ended.nodes.get(id));
  expect(run.state.snapshot).toBe(ended.snapshot);
  if (Object.values(run.state.snapshot?.context.passes ?? {}).some((n) => n > 1)) seen.add('loop passes');
  return seen;
}

describe('decide over generated graphs', () => {
  it('every run ends or waits; rollback and cancel undo exactly the completed steps in reverse; repeats are harmless; passes reset on continue-as-new; a held run neither ends nor undoes anything until resolved', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (kinds, seed) => {
        for (const what of simulate(kinds, seed)) seen.add(what);
      }),
      { numRuns: 500 },
    );
    // The generated runs reach every rule the properties speak of (a generator that stopped doing so would prove nothing).
    expect([...seen].sort()).toEqual(
      [
        'ended cancelled', 'ended completed', 'ended declined', 'ended failed', 'ended rolled_back', 'held', 'loop passes', 'node.call', 'node.held',
        'node.hold_retried', 'node.hold_rolled_back', 'node.late_answer', 'node.retry', 'node.undo_call', 'node.undo_failed', 'node.undo_retry',
        'run.continued', 'undo on cancel', 'undo on compensate',
      ].sort(),
    );
  });

  it('continue-as-new resets the pass counters: after k passes of a loop, the new run counts from its own first pass', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat({ max: 5 }), fc.array(fc.constantFrom('test.undo', 'test.step'), { maxLength: 3 }), (maxPasses, k, steps) => {
        const passes = Math.min(k, maxPasses - 1);
        const stepIds = steps.map((_, i) => `step_${i}`);
        const flow = compile({
          nodes: [
            { id: 'start', type: 'trigger.api' },
            ...steps.map((type, i) => ({ id: stepIds[i]!, type })),
            { id: 'loop', type: 'logic.loop', params: { maxPasses } },
            { id: 'tick', type: 'wait.event', params: { event: 'tick', timeout: '1h' } },
            { id: 'again', type: 'logic.continue' },
            { id: 'done', type: 'end', params: { outcome: 'completed' } },
          ],
          edges: [
            { from: 'start', to: stepIds[0] ?? 'loop' },
            ...stepIds.map((id, i) => ({ from: id, to: stepIds[i + 1] ?? 'loop' })),
            { from: 'loop', to: 'tick', branch: 'next' },
            { from: 'loop', to: 'done', branch: 'exhausted' },
            { from: 'tick', to: 'loop', branch: 'received' },
            { from: 'tick', to: 'again', branch: 'timeout' },
          ],
        });
        const run = new PureRun(flow);
        run.command({ type: 'start' });
        for (let i = 0; i < passes; i++) run.command({ type: 'event', event: 'tick', payload: {} });
        expect(run.state.snapshot!.context.passes).toEqual({ loop: passes + 1 });
        const before = run.state.order;
        run.advance(3_600_000);
        const { order, snapshot, nodes } = run.state;
        expect(order.generation).toBe(before.generation + 1);
        expect(order.instanceId).not.toBe(before.instanceId);
        expect(snapshot!.context.passes).toEqual({ loop: 1 });
        expect(order.stepSeq).toBe(steps.length + 2);
        expect(nodes.get('loop')).toMatchObject({ runs: 1, output: { pass: 1, maxPasses } });
        expect(nodes.has('again')).toBe(false);
        expect(run.state.waits).toMatchObject([{ nodeId: 'tick', generation: order.generation, run: 1 }]);
      }),
      { numRuns: 200 },
    );
  });
});
