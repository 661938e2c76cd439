// decide's hold rule (runtime contract section 16): a step with onFailure "hold" that fails with no failure branch wired
// parks the order with nothing undone, until a retry (the same run of the step goes on) or a rollback (the rules it would have had).
import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../src/engine/graph.js';
import type { ExternalAnswer } from '../../../src/engine/node-type.js';
import { decide } from '../../../src/engine/run/decide.js';
import type { Effect } from '../../../src/engine/run/effects.js';
import type { RunCommand } from '../../../src/engine/run/run-input.js';
import type { CallRow } from '../../../src/engine/runtime/order-calls.js';
import { outboxId } from '../../../src/engine/runtime/outbox.js';
import { CALL_REQUEST, compile, notes, okAnswer, PureRun, T0, undone, type Script } from './decide-driver.js';

const of = <K extends Effect['type']>(effects: readonly Effect[], type: K): Extract<Effect, { type: K }>[] =>
  effects.filter((e): e is Extract<Effect, { type: K }> => e.type === type);

/** trigger → s1 (undoable) → s2 (undoable) → s3 (`type`, held on failure unless told otherwise) → done(completed). */
function heldChain(type = 'test.step', params: Record<string, unknown> = { onFailure: 'hold' }, more: Partial<Graph> = {}): Graph {
  return {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 's1', type: 'test.undo' },
      { id: 's2', type: 'test.undo' },
      { id: 's3', type, label: 'Charge', params },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ...(more.nodes ?? []),
    ],
    edges: [{ from: 'start', to: 's1' }, { from: 's1', to: 's2' }, { from: 's2', to: 's3' }, { from: 's3', to: 'done' }, ...(more.edges ?? [])],
  };
}

/** s3 fails `times` times (retryable unless `terminal`), then succeeds; other steps succeed. */
function s3Fails(times: number, terminal = false, message = 'gateway down'): Script & { attempts: number[] } {
  const attempts: number[] = [];
  return {
    attempts,
    step: (effect) => {
      if (effect.nodeId !== 's3') return { type: 'stepDone', result: { branch: 'ok' } };
      attempts.push(effect.attempt);
      return attempts.length <= times ? { type: 'stepFailed', failure: { message, terminal } } : { type: 'stepDone', result: { branch: 'ok', output: { paid: true } } };
    },
  };
}

const resolve = (action: 'retry' | 'rollback', nodeId = 's3', note: string | null = null): RunCommand => ({ type: 'resolveHold', nodeId, action, by: 'ops@example.com', note });

describe('a held step (contract 16)', () => {
  it('fails after its retries with no failure branch: nothing undone, node failed, order waiting, the hold recorded and order.held sent', () => {
    const script = s3Fails(99);
    const run = new PureRun(compile(heldChain()), script);
    run.command({ type: 'start' });
    run.advance(1_000);
    const effects = run.advance(2_000);
    expect(script.attempts).toEqual([1, 2, 3]);
    expect(undone(effects)).toEqual([]);
    expect(of(effects, 'end')).toEqual([]);
    expect(of(effects, 'abandon')).toEqual([]);
    expect(run.state.order).toMatchObject({ status: 'waiting', reason: null, rollback: null });
    expect(run.statuses()).toEqual({ start: 'succeeded', s1: 'succeeded', s2: 'succeeded', s3: 'failed' });
    expect(run.state.nodes.get('s3')).toMatchObject({ runs: 1, attempt: 3, holds: 1, error: 'gateway down', endedAt: T0 + 3_000 });
    // The machine stands at the held node: it was not told of the failure.
    expect(run.state.snapshot!.value).toBe('s3');
    const hold = {
      orderId: 'ord_pure', nodeId: 's3', run: 1, generation: 1, number: 1, title: 'Charge failed: gateway down', error: 'gateway down', terminal: false,
      since: T0 + 3_000, status: 'open', resolvedBy: null, note: null, closedAt: null,
    };
    expect(run.state.holds).toEqual([hold]);
    expect(of(effects, 'openHold')).toEqual([{ type: 'openHold', hold }]);
    expect(of(effects, 'emit').map((e) => e.event)).toEqual([
      { event: 'order.held', nodeId: 's3', run: 1, occurrence: 1, data: { node: { id: 's3', type: 'test.step', error: 'gateway down' } } },
    ]);
    expect(notes(effects).slice(-2)).toEqual(['node.failed: Charge failed: gateway down', 'node.held: Charge failed: gateway down: held for a retry or a rollback']);
    expect(run.timers.size).toBe(0);
  });

  it('a terminal error holds at once (not retried), and the hold remembers it was terminal', () => {
    const run = new PureRun(compile(heldChain()), s3Fails(1, true, 'unknown seller'));
    const effects = run.command({ type: 'start' });
    expect(of(effects, 'schedule')).toEqual([]);
    expect(run.state.holds).toMatchObject([{ nodeId: 's3', terminal: true, error: 'unknown seller' }]);
    expect(run.state.order.status).toBe('waiting');
  });

  it('a wired failure branch takes the failure: onFailure "hold" only applies when no failure branch is wired', () => {
    const graph = heldChain('test.step', { onFailure: 'hold' }, {
      nodes: [{ id: 'handled', type: 'end', params: { outcome: 'declined', reason: 'Handled' } }],
      edges: [{ from: 's3', to: 'handled', branch: 'failed' }],
    });
    const run = new PureRun(compile(graph), s3Fails(1, true));
    run.command({ type: 'start' });
    expect(run.state.holds).toEqual([]);
    expect(run.state.order).toMatchObject({ status: 'declined', reason: 'Handled' });
  });

  it('without onFailure (or with "rollback") the rules of section 5 are unchanged: the completed steps are undone and the order fails', () => {
    for (const params of [{}, { onFailure: 'rollback' }]) {
      const run = new PureRun(compile(heldChain('test.step', params)), s3Fails(1, true));
      const effects = run.command({ type: 'start' });
      expect(run.state.holds).toEqual([]);
      expect(undone(effects)).toEqual(['s2', 's1']);
      expect(run.state.order).toMatchObject({ status: 'failed', reason: 'gateway down' });
    }
  });

  it('retry continues the same run of the step: its next attempt, the same run number, the hold closed as retried', () => {
    const script = s3Fails(3);
    const run = new PureRun(compile(heldChain()), script);
    run.command({ type: 'start' });
    run.advance(3_000);
    expect(run.state.holds).toHaveLength(1);
    run.now += 60_000;
    const effects = run.command(resolve('retry', 's3', 'gateway is back'));
    expect(script.attempts).toEqual([1, 2, 3, 4]);
    expect(of(effects, 'runStep')[0]).toEqual({ type: 'runStep', nodeId: 's3', attempt: 4, phase: 'run' });
    expect(of(effects, 'closeHold')).toEqual([
      { type: 'closeHold', hold: { nodeId: 's3', run: 1, generation: 1, number: 1 }, status: 'retried', at: T0 + 63_000, by: 'ops@example.com', note: 'gateway is back' },
    ]);
    expect(notes(effects)[0]).toBe('node.hold_retried: Charge: retry by ops@example.com: gateway is back');
    expect(run.state.nodes.get('s3')).toMatchObject({ status: 'succeeded', runs: 1, attempt: 4, error: null, output: { paid: true } });
    expect(run.state.order).toMatchObject({ status: 'completed', rollback: null });
    expect(run.state.holds).toEqual([]);
  });

  it('a retry that fails again holds again at once: a second hold with its own number, a second order.held with another id', () => {
    const run = new PureRun(compile(heldChain()), s3Fails(99));
    run.command({ type: 'start' });
    const first = run.advance(3_000);
    const effects = run.command(resolve('retry'));
    // One more attempt (4): the policy's three are spent, so it is not retried on a timer.
    expect(of(effects, 'schedule')).toEqual([]);
    expect(run.state.holds).toMatchObject([{ number: 2, status: 'open', run: 1 }]);
    expect(run.state.nodes.get('s3')).toMatchObject({ attempt: 4, holds: 2, status: 'failed' });
    const [held1] = of(first, 'emit');
    const [held2] = of(effects, 'emit');
    expect(held2!.event).toMatchObject({ event: 'order.held', occurrence: 2 });
    expect(outboxId('ord_pure', 1, held1!.event)).not.toBe(outboxId('ord_pure', 1, held2!.event));
    // The first hold was closed by the retry, the second is the open one: both written in this slice.
    expect(of(effects, 'closeHold').map((e) => e.hold.number)).toEqual([1]);
    expect(of(effects, 'openHold').map((e) => e.hold.number)).toEqual([2]);
  });

  it('rollback applies the rules the step would have had: completed steps undone in reverse, rolled_back (or failed when terminal), order.failed', () => {
    for (const terminal of [false, true]) {
      const run = new PureRun(compile(heldChain()), s3Fails(99, terminal));
      run.command({ type: 'start' });
      run.advance(3_000);
      const effects = run.command(resolve('rollback', 's3', 'gave up'));
      const status = terminal ? 'failed' : 'rolled_back';
      expect(undone(effects)).toEqual(['s2', 's1']);
      expect(notes(effects)[0]).toBe('node.hold_rolled_back: Charge: rollback by ops@example.com: gave up');
      expect(of(effects, 'closeHold')[0]).toMatchObject({ status: 'rolled_back' });
      expect(of(effects, 'emit').map((e) => e.event)).toEqual([
        { event: 'order.failed', nodeId: 's3', run: 1, data: { outcome: 'failed', reason: 'gateway down', node: { id: 's3', type: 'test.step', error: 'gateway down' } } },
      ]);
      expect(run.state.order).toMatchObject({ status, reason: 'gateway down', rollback: { outcome: status, error: null } });
      expect(run.statuses()).toMatchObject({ s1: 'rolled_back', s2: 'rolled_back', s3: 'failed', done: 'skipped' });
      expect(run.state.holds).toEqual([]);
    }
  });

  it('cancel of a held order works as usual: the hold closed as cancelled, a held external step releases what it prepared, undone by cancel', () => {
    const run = new PureRun(compile(heldChain('test.external')), {
      step: (e) => (e.nodeId !== 's3' ? { type: 'stepDone', result: { branch: 'ok' } } : e.phase === 'run' ? { type: 'stepCalled', request: CALL_REQUEST } : { type: 'stepFailed', failure: { message: 'HTTP 503', terminal: false } }),
    });
    run.command({ type: 'start' });
    run.advance(0);
    run.advance(10_000);
    expect(run.state.holds).toHaveLength(1);
    const effects = run.command({ type: 'cancel', reason: 'Customer gave up' });
    expect(of(effects, 'closeHold')).toMatchObject([{ hold: { nodeId: 's3', number: 1 }, status: 'cancelled' }]);
    expect(of(effects, 'abandon')).toEqual([{ type: 'abandon', nodeId: 's3' }]);
    expect(undone(effects)).toEqual(['s2', 's1']);
    expect(of(effects, 'undo').every((e) => e.mode === 'cancel')).toBe(true);
    expect(run.state.order).toMatchObject({ status: 'cancelled', reason: 'Customer gave up' });
    expect(run.statuses().s3).toBe('failed');
    expect(run.state.holds).toEqual([]);
  });

  it('an external step keeps its Idempotency-Key across the retry: the retry records a call of the same run with the next attempt', () => {
    const answers = [503, 503, 200];
    const run = new PureRun(compile(heldChain('test.external')), {
      step: (e) => {
        if (e.nodeId !== 's3') return { type: 'stepDone', result: { branch: 'ok' } };
        if (e.phase === 'run') return { type: 'stepCalled', request: CALL_REQUEST };
        return e.answer.status === 200 ? { type: 'stepDone', result: { branch: 'ok' } } : { type: 'stepFailed', failure: { message: `HTTP ${e.answer.status}`, terminal: false } };
      },
    });
    const calls: Effect[] = [...run.command({ type: 'start' })];
    const answer = (call: CallRow): ExternalAnswer => ({ ...okAnswer(call), status: answers[call.attempt - 1]! });
    calls.push(...run.advance(0, answer), ...run.advance(10_000, answer));
    expect(run.state.holds).toHaveLength(1);
    calls.push(...run.command(resolve('retry')));
    calls.push(...run.advance(0, answer));
    const made = of(calls, 'call').map((e) => e.call);
    expect(made.map((c) => [c.run, c.attempt])).toEqual([[1, 1], [1, 2], [1, 3]]);
    expect(new Set(made.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(run.state.order.status).toBe('completed');
  });

  it('commands the hold has no part for change nothing: a hold at another node, a spent retry timer, a resolve after the order ended', () => {
    const run = new PureRun(compile(heldChain()), s3Fails(99, true));
    run.command({ type: 'start' });
    const held = run.state;
    for (const command of [
      resolve('retry', 's2'),
      { type: 'timer', timer: { id: 'ord_pure:1:s3:1:retry:2', kind: 'step.retry', nodeId: 's3', run: 1, payload: { generation: 1, attempt: 2 } } },
      { type: 'event', event: 'anything', payload: {} },
    ] as RunCommand[]) {
      const decision = decide(run.flow, held, { ...command, at: T0, newInstanceId: 'x' });
      expect(decision.state, command.type).toBe(held);
      expect(decision.effects).toEqual([]);
    }
    run.command(resolve('rollback'));
    const ended = run.state;
    expect(decide(run.flow, ended, { ...resolve('retry'), at: T0, newInstanceId: 'x' }).state).toBe(ended);
  });
});
