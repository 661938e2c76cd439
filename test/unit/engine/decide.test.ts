// decide (src/engine/run/decide.ts), rule by rule: the run rules of runtime contract section 5 with no database.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { compileFlow } from '../../../src/engine/compiler.js';
import type { Graph } from '../../../src/engine/graph.js';
import type { NodeTypeDef } from '../../../src/engine/node-type.js';
import { decide } from '../../../src/engine/run/decide.js';
import type { Effect } from '../../../src/engine/run/effects.js';
import { openRunState } from '../../../src/engine/run/run-state.js';
import type { CallRow } from '../../../src/engine/runtime/order-calls.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { CALL_REQUEST, compile, newOrderRow, notes, okAnswer, PureRun, T0, undone, type Script } from './decide-driver.js';

const of = <K extends Effect['type']>(effects: readonly Effect[], type: K): Extract<Effect, { type: K }>[] =>
  effects.filter((e): e is Extract<Effect, { type: K }> => e.type === type);

/** trigger → steps in a row → end(outcome). */
function chain(types: string[], outcome = 'completed', reason?: string): Graph {
  const ids = types.map((_, i) => `s${i + 1}`);
  return {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      ...types.map((type, i) => ({ id: ids[i]!, type })),
      { id: 'done', type: 'end', params: reason ? { outcome, reason } : { outcome } },
    ],
    edges: ['start', ...ids].map((from, i) => ({ from, to: ids[i] ?? 'done' })),
  };
}

/** A script whose steps fail as told, per node id: a list of outcomes by attempt. */
function failing(plan: Record<string, ('retryable' | 'terminal' | 'ok')[]>, message = 'boom'): Script {
  return {
    step: (effect) => {
      const outcome = plan[effect.nodeId]?.[effect.attempt - 1] ?? 'ok';
      if (outcome === 'ok') return { type: 'stepDone', result: { branch: 'ok' } };
      return { type: 'stepFailed', failure: { message, terminal: outcome === 'terminal' } };
    },
  };
}

describe('a run from its trigger to an End node', () => {
  it('start: the trigger runs, steps follow their branches, a completed End emits order.completed and skips untaken nodes', () => {
    const flow = compile({
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'pick', type: 'test.choice', params: { options: ['left', 'right'] } },
        { id: 'a', type: 'test.step', label: 'Step A' },
        { id: 'b', type: 'test.step' },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'pick' },
        { from: 'pick', to: 'a', branch: 'left' },
        { from: 'pick', to: 'b', branch: 'right' },
        { from: 'a', to: 'done' },
        { from: 'b', to: 'done' },
      ],
    });
    const run = new PureRun(flow, { step: (e) => ({ type: 'stepDone', result: { branch: e.nodeId === 'pick' ? 'left' : 'ok', vars: { [e.nodeId]: true } } }) });
    const effects = run.command({ type: 'start' });
    expect(notes(effects)).toEqual([
      'order.started: Order started on test-flow v1',
      'node.succeeded: API order',
      'node.succeeded: pick done (left)',
      'node.succeeded: Step A done (ok)',
      'order.completed: Order completed',
    ]);
    expect(of(effects, 'runStep').map((e) => e.nodeId)).toEqual(['start', 'pick', 'a']);
    expect(of(effects, 'emit').map((e) => e.event)).toEqual([{ event: 'order.completed', nodeId: 'done', run: 1, data: { outcome: 'completed', reason: null } }]);
    expect(of(effects, 'end')).toEqual([{ type: 'end', status: 'completed', reason: null }]);
    expect(run.state.order).toMatchObject({ status: 'completed', reason: null, started: true, stepSeq: 3, vars: { pick: true, a: true } });
    expect(run.statuses()).toEqual({ start: 'succeeded', pick: 'succeeded', a: 'succeeded', b: 'skipped', done: 'succeeded' });
    expect(run.state.nodes.get('a')).toMatchObject({ runs: 1, attempt: 1, doneSeq: 3, branches: ['ok'], startedAt: T0, endedAt: T0 });
    expect(run.state.snapshot?.status).toBe('done');
    expect(undone(effects)).toEqual([]);
  });

  it('a step’s emitted event reaches the outbox and its order view is what the branch reads; logic nodes write no timeline entry', () => {
    const flow = compile({
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'price', type: 'test.step' },
        { id: 'check', type: 'logic.branch', params: { when: { path: 'order.total', op: 'gt', value: 100 } } },
        { id: 'big', type: 'end', params: { outcome: 'completed' } },
        { id: 'small', type: 'end', params: { outcome: 'declined', reason: 'Too small' } },
      ],
      edges: [
        { from: 'start', to: 'price' },
        { from: 'price', to: 'check' },
        { from: 'check', to: 'big', branch: 'true' },
        { from: 'check', to: 'small', branch: 'false' },
      ],
    });
    const run = new PureRun(flow, {
      step: () => ({ type: 'stepDone', result: { branch: 'ok', output: { priced: true }, emit: { event: 'order.priced', data: { extra: 1 } } } }),
    });
    const effects = run.command({ type: 'start' });
    // The branch read order.total (1,000) from the order's facts, which decide carries and never changes.
    expect(run.state.order).toMatchObject({ status: 'completed', facts: { total: 1_000 } });
    expect(of(effects, 'emit')[0]!.event).toEqual({ event: 'order.priced', nodeId: 'price', run: 1, data: { node: { id: 'price', type: 'test.step', output: { priced: true } }, extra: 1 } });
    expect(notes(effects).some((n) => n.includes('check'))).toBe(false);
    expect(run.state.nodes.get('check')).toMatchObject({ status: 'succeeded', output: { result: true } });
  });

  it('an End with outcome declined undoes the completed steps in reverse first, then ends with its reason', () => {
    const run = new PureRun(compile(chain(['test.undo', 'test.step', 'test.undo'], 'declined', 'No stock')));
    const effects = run.command({ type: 'start' });
    expect(undone(effects)).toEqual(['s3', 's1']);
    expect(of(effects, 'undo').every((e) => e.mode === 'compensate')).toBe(true);
    expect(notes(effects).slice(-3)).toEqual(['node.rolled_back: s3 undone', 'node.rolled_back: s1 undone', 'order.declined: Order declined: No stock']);
    expect(run.state.order).toMatchObject({ status: 'declined', reason: 'No stock', rollback: { outcome: 'declined', error: null } });
    expect(run.statuses()).toMatchObject({ s1: 'rolled_back', s2: 'succeeded', s3: 'rolled_back', done: 'succeeded' });
  });
});

describe('step failures (retry policy, failure branch, rollback)', () => {
  it('a retryable failure is retried on a durable timer by the policy; the last attempt rolls back the completed steps in reverse', () => {
    const run = new PureRun(compile(chain(['test.undo', 'test.undo', 'test.step'])), failing({ s3: ['retryable', 'retryable', 'retryable'] }));
    let effects = run.command({ type: 'start' });
    expect(of(effects, 'schedule').map((e) => e.timer)).toEqual([
      { id: 'ord_pure:1:s3:1:retry:2', orderId: 'ord_pure', kind: 'step.retry', nodeId: 's3', run: 1, dueAt: T0 + 1_000, payload: { attempt: 2, generation: 1 } },
    ]);
    expect(notes(effects).at(-1)).toBe('node.retry: s3 failed (attempt 1 of 3): boom; retrying');
    expect(run.state.order.status).toBe('running');
    expect(run.state.nodes.get('s3')).toMatchObject({ status: 'running', attempt: 1, error: 'boom', runs: 1 });

    effects = run.advance(1_000);
    expect(of(effects, 'runStep')).toEqual([{ type: 'runStep', nodeId: 's3', attempt: 2, phase: 'run' }]);
    expect(of(effects, 'schedule')[0]!.timer).toMatchObject({ id: 'ord_pure:1:s3:1:retry:3', dueAt: T0 + 1_000 + 2_000 });
    expect(run.state.nodes.get('s3')!.runs).toBe(1);

    effects = run.advance(2_000);
    expect(notes(effects)).toEqual([
      'node.failed: s3 failed: boom',
      'node.rolled_back: s2 undone',
      'node.rolled_back: s1 undone',
      'order.rolled_back: Order rolled back: boom',
    ]);
    expect(undone(effects)).toEqual(['s2', 's1']);
    expect(of(effects, 'emit').map((e) => e.event)).toEqual([
      { event: 'order.failed', nodeId: 's3', run: 1, data: { outcome: 'failed', reason: 'boom', node: { id: 's3', type: 'test.step', error: 'boom' } } },
    ]);
    expect(run.state.order).toMatchObject({ status: 'rolled_back', reason: 'boom', rollback: { outcome: 'rolled_back', error: null } });
    expect(run.statuses()).toMatchObject({ s1: 'rolled_back', s2: 'rolled_back', s3: 'failed', done: 'skipped' });
    expect(of(effects, 'cancelAllTimers')).toHaveLength(1);
  });

  it('a terminal failure is not retried: the order ends failed with the error as reason', () => {
    const run = new PureRun(compile(chain(['test.undo', 'test.step'])), failing({ s2: ['terminal'] }, 'unknown seller'));
    const effects = run.command({ type: 'start' });
    expect(of(effects, 'schedule')).toEqual([]);
    expect(notes(effects)).toContain('node.failed: s2 failed: unknown seller');
    expect(run.state.order).toMatchObject({ status: 'failed', reason: 'unknown seller', rollback: { outcome: 'failed', error: null } });
    expect(undone(effects)).toEqual(['s1']);
  });

  it('a Retry-After wins over the backoff; an error’s output is kept as the node’s output', () => {
    const run = new PureRun(compile(chain(['test.step'])), {
      step: () => ({ type: 'stepFailed', failure: { message: 'slow down', terminal: false, retryAfterMs: 30_000, output: { status: 429 } } }),
    });
    const effects = run.command({ type: 'start' });
    expect(of(effects, 'schedule')[0]!.timer.dueAt).toBe(T0 + 30_000);
    expect(run.state.nodes.get('s1')!.output).toEqual({ status: 429 });
  });

  it('a wired failure branch takes the failure instead of rolling back', () => {
    const flow = compile({
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'a', type: 'test.undo' },
        { id: 'b', type: 'test.step' },
        { id: 'ok', type: 'end', params: { outcome: 'completed' } },
        { id: 'handled', type: 'end', params: { outcome: 'completed', reason: 'Handled' } },
      ],
      edges: [
        { from: 'start', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'ok' },
        { from: 'b', to: 'handled', branch: 'failed' },
      ],
    });
    const run = new PureRun(flow, failing({ b: ['terminal'] }));
    const effects = run.command({ type: 'start' });
    expect(undone(effects)).toEqual([]);
    expect(run.state.order).toMatchObject({ status: 'completed', reason: 'Handled', rollback: null });
    expect(run.statuses()).toMatchObject({ b: 'failed', handled: 'succeeded', ok: 'skipped' });
  });

  it('a failing undo is recorded in rollback.error and does not stop the others', () => {
    const run = new PureRun(compile(chain(['test.undo', 'test.undo', 'test.undo', 'test.step'])), {
      ...failing({ s4: ['terminal'] }),
      undo: (nodeId) => (nodeId === 's2' ? { type: 'undoFailed', message: 'ledger closed' } : { type: 'undone', call: null }),
    });
    const effects = run.command({ type: 'start' });
    expect(undone(effects)).toEqual(['s3', 's2', 's1']);
    expect(notes(effects)).toContain('node.undo_failed: Undoing s2 failed: ledger closed');
    expect(run.state.order.rollback).toEqual({ outcome: 'failed', error: 's2: ledger closed' });
    expect(run.statuses()).toMatchObject({ s1: 'rolled_back', s2: 'succeeded', s3: 'rolled_back' });
  });
});

describe('waits', () => {
  const approvalFlow = compile({
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'approve', type: 'human.approval', label: 'Manager approval', params: { title: 'Approve {{order.id}}', timeout: '2d', assignee: 'boss' } },
      { id: 'yes', type: 'end', params: { outcome: 'completed' } },
      { id: 'no', type: 'end', params: { outcome: 'declined', reason: 'Rejected' } },
      { id: 'late', type: 'end', params: { outcome: 'declined', reason: 'Nobody decided' } },
    ],
    edges: [
      { from: 'start', to: 'approve' },
      { from: 'approve', to: 'yes', branch: 'approved' },
      { from: 'approve', to: 'no', branch: 'rejected' },
      { from: 'approve', to: 'late', branch: 'escalated' },
    ],
  });

  it('an approval opens a wait with its deadline timer; the run rests waiting', () => {
    const run = new PureRun(approvalFlow);
    const effects = run.command({ type: 'start' });
    const wait = {
      orderId: 'ord_pure', nodeId: 'approve', run: 1, generation: 1, kind: 'approval', title: 'Approve ord_pure', event: null, assignee: 'boss',
      amountMinor: 1_000, deadline: T0 + 2 * 86_400_000, since: T0, status: 'open', decidedBy: null, note: null, closedAt: null,
      timerId: 'ord_pure:1:approve:1:timeout',
    };
    expect(of(effects, 'openWait')).toEqual([{ type: 'openWait', wait }]);
    expect(of(effects, 'schedule')[0]!.timer).toEqual({ id: 'ord_pure:1:approve:1:timeout', orderId: 'ord_pure', kind: 'wait.timeout', nodeId: 'approve', run: 1, dueAt: T0 + 2 * 86_400_000, payload: { generation: 1 } });
    expect(of(effects, 'note').at(-1)!.entry).toEqual({ at: T0, kind: 'wait.opened', message: 'Approve ord_pure', nodeId: 'approve', data: { kind: 'approval', event: null, deadline: T0 + 2 * 86_400_000 } });
    expect(run.state.waits).toEqual([wait]);
    expect(run.state.order.status).toBe('waiting');
    expect(run.state.nodes.get('approve')).toMatchObject({ status: 'waiting', runs: 1 });
  });

  it('a decision closes the wait, cancels its timer and takes its branch', () => {
    const run = new PureRun(approvalFlow);
    run.command({ type: 'start' });
    run.now += 5_000;
    const effects = run.command({ type: 'approval', nodeId: 'approve', decision: 'rejected', by: 'ann', note: 'too dear' });
    expect(notes(effects)[0]).toBe('approval.decided: Rejected by ann: too dear');
    expect(of(effects, 'closeWait')).toEqual([
      { type: 'closeWait', wait: { nodeId: 'approve', run: 1, generation: 1 }, status: 'rejected', at: T0 + 5_000, by: 'ann', note: 'too dear' },
    ]);
    expect(of(effects, 'cancelTimer')).toEqual([{ type: 'cancelTimer', id: 'ord_pure:1:approve:1:timeout', at: T0 + 5_000 }]);
    expect(run.state.nodes.get('approve')!.output).toEqual({ decision: 'rejected', by: 'ann', note: 'too dear', outcome: 'rejected' });
    expect(run.state.order).toMatchObject({ status: 'declined', reason: 'Rejected' });
    expect(run.state.waits).toEqual([]);
  });

  it('the deadline escalates an approval (by timeout); its timer is not cancelled, it fired', () => {
    const run = new PureRun(approvalFlow);
    run.command({ type: 'start' });
    const effects = run.advance(2 * 86_400_000);
    expect(notes(effects).slice(0, 2)).toEqual(['wait.timeout: Approve ord_pure: timed out', 'node.succeeded: Timed out: escalated']);
    expect(of(effects, 'closeWait')[0]).toMatchObject({ status: 'escalated', by: 'timeout' });
    expect(of(effects, 'cancelTimer')).toEqual([]);
    expect(run.state.order).toMatchObject({ status: 'declined', reason: 'Nobody decided' });
  });

  const eventFlow = compile({
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'paid', type: 'wait.event', params: { event: 'payment.received', timeout: '1d' } },
      { id: 'pause', type: 'wait.delay', params: { duration: '2h' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      { id: 'unpaid', type: 'end', params: { outcome: 'cancelled', reason: 'Not paid' } },
    ],
    edges: [
      { from: 'start', to: 'paid' },
      { from: 'paid', to: 'pause', branch: 'received' },
      { from: 'paid', to: 'unpaid', branch: 'timeout' },
      { from: 'pause', to: 'done' },
    ],
  });

  it('an event resolves the wait that waits for it (payload in vars); a delay elapses on its timer', () => {
    const run = new PureRun(eventFlow);
    run.command({ type: 'start' });
    let effects = run.command({ type: 'event', event: 'payment.received', payload: { amount: 10 } });
    expect(notes(effects).slice(0, 3)).toEqual(['event.received: Event payment.received received', 'node.succeeded: Received payment.received', 'wait.opened: Waiting 2h']);
    expect(run.state.order.vars).toEqual({ payment_received: { amount: 10, event: 'payment.received', at: T0 } });
    expect(of(effects, 'closeWait')[0]).toMatchObject({ status: 'received', by: null });
    expect(run.state.order.status).toBe('waiting');
    effects = run.advance(2 * 3_600_000);
    expect(of(effects, 'closeWait')[0]).toMatchObject({ status: 'elapsed' });
    expect(notes(effects)).not.toContain('wait.timeout: Waiting 2h: timed out');
    expect(run.state.order.status).toBe('completed');
  });

  it('an event nobody waits for, a decision for a node that is not waiting, a command to an ended order: nothing changes', () => {
    const run = new PureRun(eventFlow);
    run.command({ type: 'start' });
    const before = run.state;
    for (const command of [
      { type: 'event', event: 'payment.refused', payload: {} },
      { type: 'approval', nodeId: 'paid', decision: 'approved', by: 'x', note: null },
      { type: 'timer', timer: { id: 'ord_pure:1:paid:1:timeout', kind: 'wait.timeout', nodeId: 'paid', run: 1, payload: { generation: 0 } } },
      { type: 'timer', timer: { id: 'ord_pure:1:paid:1:retry:2', kind: 'step.retry', nodeId: 'paid', run: 1, payload: { generation: 1, attempt: 2 } } },
      { type: 'start' },
    ] as const) {
      const decision = decide(run.flow, before, { ...command, at: T0, newInstanceId: 'x' });
      expect(decision.state, command.type).toBe(before);
      expect(decision.effects).toEqual([]);
    }
    run.command({ type: 'cancel', reason: 'gone' });
    const ended = run.state;
    expect(decide(run.flow, ended, { type: 'cancel', reason: 'again', at: T0, newInstanceId: 'x' }).state).toBe(ended);
    expect(decide(run.flow, ended, { type: 'event', event: 'payment.received', payload: {}, at: T0, newInstanceId: 'x' }).state).toBe(ended);
  });

  it('a wait timer that fires late (its wait resolved by the event) or twice changes nothing', () => {
    const run = new PureRun(eventFlow);
    run.command({ type: 'start' });
    const timer = run.timers.get('ord_pure:1:paid:1:timeout')!;
    run.command({ type: 'event', event: 'payment.received', payload: {} });
    expect(run.timers.has(timer.id)).toBe(false);
    const resting = run.state;
    expect(run.fire(timer)).toEqual([]);
    expect(run.state).toBe(resting);
  });
});

describe('loops', () => {
  it('a loop node counts its passes in the snapshot and takes exhausted after maxPasses', () => {
    const flow = compile({
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'loop', type: 'logic.loop', params: { maxPasses: 3 } },
        { id: 'a', type: 'test.step' },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'loop' },
        { from: 'loop', to: 'a', branch: 'next' },
        { from: 'loop', to: 'done', branch: 'exhausted' },
        { from: 'a', to: 'loop' },
      ],
    });
    const run = new PureRun(flow);
    run.command({ type: 'start' });
    expect(run.state.snapshot!.context.passes).toEqual({ loop: 3 });
    expect(run.state.nodes.get('a')).toMatchObject({ runs: 3, status: 'succeeded' });
    expect(run.state.nodes.get('loop')).toMatchObject({ runs: 4, output: { passes: 3, maxPasses: 3 }, branches: ['next', 'exhausted'] });
    expect(run.state.order.status).toBe('completed');
  });
});

describe('continue-as-new', () => {
  const flow = compile({
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'loop', type: 'logic.loop', params: { maxPasses: 5 } },
      { id: 'period', type: 'wait.delay', params: { duration: '30d' } },
      { id: 'again', type: 'logic.continue' },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
    ],
    edges: [
      { from: 'start', to: 'loop' },
      { from: 'loop', to: 'period', branch: 'next' },
      { from: 'loop', to: 'done', branch: 'exhausted' },
      { from: 'period', to: 'again' },
    ],
  });

  it('starts a new run: generation + 1, the input’s instance id, node records and pass counters reset, stepSeq again from 0, vars kept', () => {
    const run = new PureRun(flow, {}, newOrderRow({ vars: { plan: 'monthly' } }));
    run.command({ type: 'start' });
    expect(run.state.snapshot!.context.passes).toEqual({ loop: 1 });
    const instanceBefore = run.state.order.instanceId;
    const effects = run.advance(30 * 86_400_000);
    const continued = of(effects, 'note').find((e) => e.entry.kind === 'run.continued')!.entry;
    expect(continued).toMatchObject({ message: 'Continued as new run (generation 2)', nodeId: 'again' });
    expect(run.state.order.generation).toBe(2);
    expect(run.state.order.instanceId).not.toBe(instanceBefore);
    expect(continued.data).toEqual({ instanceId: run.state.order.instanceId });
    expect(run.state.snapshot!.context.passes).toEqual({ loop: 1 });
    expect(run.state.order).toMatchObject({ stepSeq: 2, vars: { plan: 'monthly' }, status: 'waiting' });
    expect(run.statuses()).toEqual({ start: 'succeeded', loop: 'succeeded', period: 'waiting' });
    expect(run.state.waits).toMatchObject([{ nodeId: 'period', generation: 2, run: 1, timerId: 'ord_pure:2:period:1:timeout' }]);
  });

  it('a timer of the previous generation changes nothing in the new run', () => {
    const run = new PureRun(flow);
    run.command({ type: 'start' });
    const old = run.timers.get('ord_pure:1:period:1:timeout')!;
    run.advance(30 * 86_400_000);
    const resting = run.state;
    expect(decide(flow, resting, { type: 'timer', timer: { id: old.id, kind: old.kind, nodeId: 'period', run: 1, payload: old.payload }, at: run.now, newInstanceId: 'x' }).state).toBe(resting);
  });
});

describe('external calls', () => {
  const flow = compile(chain(['test.undo', 'test.external'], 'declined', 'Undo them'));
  const callOf = (effects: readonly Effect[]) => of(effects, 'call')[0]!;

  it('a step that calls out is recorded with its wake-up timer; the node stays running and the order rests running', () => {
    const run = new PureRun(flow, { step: (e) => (e.nodeId === 's2' && e.phase === 'run' ? { type: 'stepCalled', request: CALL_REQUEST } : { type: 'stepDone', result: { branch: 'ok' } }) });
    const effects = run.command({ type: 'start' });
    const { call, wakeUp } = callOf(effects);
    expect(call).toMatchObject({ id: 'ord_pure:1:s2:1:step:1', orderId: 'ord_pure', generation: 1, nodeId: 's2', run: 1, purpose: 'step', attempt: 1, request: CALL_REQUEST });
    expect(call.idempotencyKey).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(wakeUp).toEqual({ id: 'call:ord_pure:1:s2:1:step:1', orderId: 'ord_pure', kind: 'call.perform', nodeId: 's2', run: 1, dueAt: T0, payload: { callId: call.id, generation: 1 } });
    expect(notes(effects).at(-1)).toBe('node.call: s2: POST https://api.example/pay (attempt 1)');
    expect(run.state.order.status).toBe('running');
    expect(run.state.nodes.get('s2')).toMatchObject({ status: 'running', attempt: 1 });
  });

  it('the awaited answer goes to the step’s answer; a repeat or an older attempt’s answer is late and changes nothing else', () => {
    const run = new PureRun(flow, { step: (e) => (e.nodeId === 's2' && e.phase === 'run' ? { type: 'stepCalled', request: CALL_REQUEST } : { type: 'stepDone', result: { branch: 'ok' } }) });
    run.command({ type: 'start' });
    const pending = [...run.calls.values()][0]!;
    const stale: CallRow = { ...pending, attempt: 7 };
    const late = run.command({ type: 'answer', call: stale, answer: okAnswer(stale) });
    expect(notes(late)).toEqual(['node.late_answer: Late answer for s2 (attempt 7): HTTP 200; changed nothing']);
    expect(run.state.nodes.get('s2')!.status).toBe('running');
    const effects = run.advance(0);
    expect(notes(effects)[0]).toBe('node.answer: s2: HTTP 200 (attempt 1)');
    expect(of(effects, 'runStep')[0]).toMatchObject({ nodeId: 's2', attempt: 1, phase: 'answer', answer: { status: 200 } });
    expect(run.state.order.status).toBe('declined');
  });

  it('an answer body that asks for another call is a bug, not a result', () => {
    const run = new PureRun(flow, { step: (e) => (e.nodeId === 's2' ? { type: 'stepCalled', request: CALL_REQUEST } : { type: 'stepDone', result: { branch: 'ok' } }) });
    run.command({ type: 'start' });
    expect(() => run.advance(0)).toThrow('node type test.external answered a call with another call');
  });

  it('a completed external step is undone by a call of its own; its answer is recorded, retried on an outage, failed on a refusal', () => {
    const run = new PureRun(flow, { undo: (nodeId) => ({ type: 'undone', call: nodeId === 's2' ? CALL_REQUEST : null }) });
    const effects = run.command({ type: 'start' });
    expect(undone(effects)).toEqual(['s2', 's1']);
    expect(callOf(effects).call).toMatchObject({ id: 'ord_pure:1:s2:1:undo:1', purpose: 'undo', attempt: 1 });
    expect(notes(effects)).toContain('node.call: Undo of s2: POST https://api.example/pay (attempt 1)');
    expect(run.state.order.status).toBe('declined');
    // The order ended, and the undo call's timer, written with the same slice, still stands.
    const outage = run.advance(0, (call) => ({ ...okAnswer(call), status: 503 }));
    expect(notes(outage)).toEqual(['node.undo_retry: Undo of s2 failed (attempt 1 of 2): HTTP 503; retrying', 'node.call: Undo of s2: POST https://api.example/pay (attempt 2)']);
    expect(of(outage, 'call')[0]!.wakeUp.dueAt).toBe(T0 + 10_000);
    const refused = run.advance(10_000, (call) => ({ ...okAnswer(call), status: 400 }));
    expect(notes(refused)).toEqual(['node.undo_failed: Undoing s2 failed: HTTP 400']);
    expect(run.state.order.status).toBe('declined');
  });

  it('the final failure of an external step releases what it prepared (abandon) before the run fails', () => {
    const run = new PureRun(compile(chain(['test.external'])), {
      step: (e) => (e.phase === 'run' && e.nodeId === 's1' ? { type: 'stepCalled', request: CALL_REQUEST } : e.phase === 'answer' ? { type: 'stepFailed', failure: { message: 'HTTP 502', terminal: false } } : { type: 'stepDone', result: { branch: 'ok' } }),
      abandon: () => ({ type: 'abandonFailed', message: 'stock gone' }),
    });
    run.command({ type: 'start' });
    const first = run.advance(0);
    expect(notes(first).at(-1)).toBe('node.retry: s1 failed (attempt 1 of 2): HTTP 502; retrying');
    const effects = run.advance(10_000);
    expect(of(effects, 'abandon')).toEqual([{ type: 'abandon', nodeId: 's1' }]);
    expect(notes(effects).slice(-4)).toEqual([
      'node.answer: s1: HTTP 200 (attempt 2)',
      'node.failed: s1 failed: HTTP 502',
      'node.undo_failed: Releasing what s1 prepared failed: stock gone',
      'order.rolled_back: Order rolled back: HTTP 502',
    ]);
  });
});

describe('cancel', () => {
  it('closes waits and timers, abandons a step whose call is out, undoes by cancel (cancel: null keeps), then ends cancelled', () => {
    const flow = compile({
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'reserve', type: 'test.undo' },
        { id: 'capture', type: 'test.keep' },
        { id: 'plain', type: 'test.step' },
        { id: 'ship', type: 'test.external' },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'reserve' },
        { from: 'reserve', to: 'capture' },
        { from: 'capture', to: 'plain' },
        { from: 'plain', to: 'ship' },
        { from: 'ship', to: 'done' },
      ],
    });
    const run = new PureRun(flow, { step: (e) => (e.nodeId === 'ship' ? { type: 'stepCalled', request: CALL_REQUEST } : { type: 'stepDone', result: { branch: 'ok' } }) });
    run.command({ type: 'start' });
    run.now += 1_000;
    const effects = run.command({ type: 'cancel', reason: 'Customer changed their mind' });
    expect(effects.map((e) => e.type)).toEqual(['cancelAllTimers', 'abandon', 'undo', 'note', 'emit', 'note', 'end']);
    expect(of(effects, 'undo')).toEqual([{ type: 'undo', nodeId: 'reserve', mode: 'cancel' }]);
    expect(of(effects, 'emit')[0]!.event).toEqual({ event: 'order.cancelled', nodeId: 'cancel', run: 1, data: { outcome: 'cancelled', reason: 'Customer changed their mind' } });
    expect(notes(effects)).toEqual(['node.rolled_back: reserve undone', 'order.cancelled: Order cancelled: Customer changed their mind']);
    expect(run.state.order).toMatchObject({ status: 'cancelled', reason: 'Customer changed their mind', rollback: { outcome: 'cancelled', error: null } });
    expect(run.statuses()).toEqual({ start: 'succeeded', reserve: 'rolled_back', capture: 'succeeded', plain: 'succeeded', ship: 'skipped', done: 'skipped' });
    expect(run.state.snapshot!.value).toBe('__cancelled');
    expect(run.timers.size).toBe(0);
    // The call's answer comes after the cancel: late, recorded, nothing else.
    const call = [...run.calls.values()][0]!;
    expect(notes(run.command({ type: 'answer', call, answer: okAnswer(call) }))).toEqual(['node.late_answer: Late answer for ship (attempt 1): HTTP 200; changed nothing']);
  });

  it('a cancel while an approval waits closes it as cancelled; nothing was done, so there is no rollback', () => {
    const flow = compile({
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'ok', type: 'human.approval' },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'ok' },
        { from: 'ok', to: 'done', branch: 'approved' },
        { from: 'ok', to: 'done', branch: 'rejected' },
        { from: 'ok', to: 'done', branch: 'escalated' },
      ],
    });
    const run = new PureRun(flow);
    run.command({ type: 'start' });
    const effects = run.command({ type: 'cancel', reason: 'dup' });
    expect(of(effects, 'closeWait')).toEqual([{ type: 'closeWait', wait: { nodeId: 'ok', run: 1, generation: 1 }, status: 'cancelled', at: T0, by: null, note: null }]);
    expect(run.state.order).toMatchObject({ status: 'cancelled', rollback: null });
    expect(run.state.waits).toEqual([]);
    expect(run.statuses().ok).toBe('skipped');
  });
});

describe('decide is pure and keeps its protocol', () => {
  it('leaves the state it is given as it was, and decides the same input the same way (checked on every call by the driver)', () => {
    const run = new PureRun(compile(chain(['test.undo', 'test.step'], 'declined')));
    expect(() => run.command({ type: 'start' })).not.toThrow();
    expect(run.state.order.status).toBe('declined');
  });

  it('refuses an outcome it did not ask for, and a command while it waits for an outcome', () => {
    const flow = compile(chain(['test.step']));
    const idle = openRunState(flow, newOrderRow(), new Map(), []);
    expect(() => decide(flow, idle, { type: 'stepDone', result: { branch: 'ok' }, at: T0, newInstanceId: 'x' })).toThrow('while it waits for nothing');
    const busy = decide(flow, idle, { type: 'start', at: T0, newInstanceId: 'x' }).state;
    expect(busy.awaiting).toEqual({ type: 'runStep', nodeId: 'start', attempt: 1, phase: 'run' });
    expect(() => decide(flow, busy, { type: 'cancel', reason: 'x', at: T0, newInstanceId: 'x' })).toThrow('while it waits for runStep of start');
    expect(() => decide(flow, busy, { type: 'undone', call: null, at: T0, newInstanceId: 'x' })).toThrow('not undone');
  });

  it('a wait() that uses a port fails inside decide instead of doing I/O', () => {
    const sneaky: NodeTypeDef<Record<string, never>> = {
      type: 'test.sneaky_wait',
      kind: 'wait',
      label: 'Sneaky wait',
      description: 'Reads a port in wait().',
      params: z.strictObject({}),
      branches: () => ['next'],
      defaultBranch: 'next',
      wait(ctx) {
        void ctx.ports.settings.read();
        return { kind: 'delay', timeoutMs: 1, timeoutBranch: 'next' };
      },
      resolveWait: () => ({ branch: 'next' }),
    };
    const flow = compileFlow('sneaky@1', chain(['test.sneaky_wait']), createCatalogue([...genericNodeTypes, sneaky]));
    const run = new PureRun(flow);
    expect(() => run.command({ type: 'start' })).toThrow('a wait() used the port settings');
  });
});
