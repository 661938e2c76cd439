// Contract 14's simulation host without a database: decide driven in memory, the script applied each time the run waits
// (events, decisions by `simulation`, advances that alone fire timers, respond entries used only at their node's call,
// 200 {} otherwise), failSteps failing at once as if retries ran out, a failed body's writes taken back, and the budget.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { compileFlow, type CompiledFlow } from '../../../src/engine/compiler.js';
import type { NodeTypeDef } from '../../../src/engine/node-type.js';
import type { StepPorts } from '../../../src/engine/step-store.js';
import { TerminalError } from '../../../src/domain/errors.js';
import { SimulatedRun } from '../../../src/engine/simulation/simulated-run.js';
import { SimulationBudget, SimulationBudgetError } from '../../../src/engine/simulation/simulation-budget.js';
import type { SimulationStep } from '../../../src/engine/simulation/simulation-script.js';
import type { SimulatedWorld } from '../../../src/engine/simulation/simulated-world.js';
import { withFailingSteps } from '../../../src/engine/simulation/failing-steps.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { newOrderRow, T0 } from './decide-driver.js';

/** A step that writes a row into the world, then fails when its params say so: what a savepoint must take back. */
const writer: NodeTypeDef<{ fail?: boolean }> = {
  type: 'test.writer',
  kind: 'step',
  label: 'Writer',
  description: 'Writes one row through its port; fails after writing when asked.',
  params: z.strictObject({ fail: z.boolean().optional() }),
  branches: () => ['ok', 'failed'],
  defaultBranch: 'ok',
  optionalBranches: ['failed'],
  failureBranch: 'failed',
  retry: { attempts: 3, backoffMs: 1_000, factor: 2 },
  async run(ctx) {
    (ctx.ports as unknown as { rows: { add(row: string): void } }).rows.add(ctx.nodeId);
    if (ctx.params.fail) throw new TerminalError('failed after writing');
    return { branch: 'ok' };
  },
  async compensate(ctx) {
    (ctx.ports as unknown as { rows: { add(row: string): void } }).rows.add(`undo ${ctx.nodeId}`);
  },
};

const catalogue = createCatalogue([...genericNodeTypes, writer]);

/** An in-memory world with one table and a journal, as the simulated commerce ledger keeps one. */
function world(): SimulatedWorld & { rows: string[] } {
  const rows: string[] = [];
  let journal: (() => void)[] | null = null;
  return {
    rows,
    ports: () => ({ rows: { add: (row: string) => (rows.push(row), journal?.push(() => void rows.pop())) } }) as unknown as StepPorts,
    async atomically(body) {
      journal = [];
      const mine = journal;
      try {
        return await body();
      } catch (err) {
        for (const undo of mine.reverse()) undo();
        throw err;
      } finally {
        journal = null;
      }
    },
  };
}

const n = (id: string, type: string, params?: Record<string, unknown>) => ({ id, type, ...(params ? { params } : {}) });
const HOUR = 3_600_000;

function compile(nodes: ReturnType<typeof n>[], edges: { from: string; to: string; branch?: string }[]): CompiledFlow {
  return compileFlow('sim-test@1', { nodes, edges }, catalogue);
}

/** start → write → review (approval, 1 d) → pay (payment.received, 2 h) → call (http.call, 1 retry after 10 s) → done; timeouts end declined (undoing write). */
const flow = compile(
  [
    n('start', 'trigger.api'),
    n('write', 'test.writer'),
    n('review', 'human.approval', { timeout: '1d' }),
    n('pay', 'wait.event', { event: 'payment.received', timeout: '2h' }),
    n('call', 'http.call', { url: 'https://erp.example/orders', retry: { attempts: 1, backoff: '10s' } }),
    n('done', 'end', { outcome: 'completed' }),
    n('late', 'end', { outcome: 'declined', reason: 'Too late' }),
  ],
  [
    { from: 'start', to: 'write' },
    { from: 'write', to: 'review' },
    { from: 'review', to: 'pay', branch: 'approved' },
    { from: 'review', to: 'late', branch: 'rejected' },
    { from: 'review', to: 'late', branch: 'escalated' },
    { from: 'pay', to: 'call', branch: 'received' },
    { from: 'pay', to: 'late', branch: 'timeout' },
    { from: 'call', to: 'done' },
  ],
);

async function play(script: SimulationStep[], f: CompiledFlow = flow, budget = new SimulationBudget()) {
  const w = world();
  const run = new SimulatedRun(f, newOrderRow({ createdAt: T0 }), w, budget);
  const outcome = await run.play(script).then(
    () => null,
    (err: unknown) => err,
  );
  return { run, w, outcome, state: run.runState, statuses: Object.fromEntries([...run.runState.nodes.values()].map((r) => [r.nodeId, r.status])) };
}

const event: SimulationStep = { kind: 'event', event: 'payment.received', payload: { amount: 10 } };
const approve: SimulationStep = { kind: 'decision', decision: 'approved', nodeId: null, note: 'fine' };

describe('the script (contract 14)', () => {
  it('applies one entry each time the run waits: the sole approval decided by `simulation`, the event, the call answered 200 {}; path and scriptUsed', async () => {
    const { run, state, outcome, w } = await play([approve, event]);
    expect(outcome).toBeNull();
    expect(state.order.status).toBe('completed');
    expect(run.path).toEqual(['start', 'write', 'review', 'pay', 'call', 'done']);
    expect(run.scriptUsed).toBe(2);
    expect(state.nodes.get('review')?.output).toMatchObject({ decision: 'approved', by: 'simulation', note: 'fine' });
    expect(state.nodes.get('call')?.output).toEqual({ status: 200, body: {}, attempts: 1 });
    expect(run.callLog).toEqual([expect.objectContaining({ nodeId: 'call', purpose: 'step', attempt: 1, status: 200, scripted: false, url: 'https://erp.example/orders' })]);
    expect(run.events.map((e) => e.event)).toEqual(['order.completed']);
    expect(w.rows).toEqual(['write']);
    // Time stood still: nothing advanced it.
    expect(run.now).toBe(T0);
  });

  it('stops when the script is used up while the run waits; timers fire only on advance, in due order, the clock at each due time', async () => {
    const waiting = await play([]);
    expect(waiting.state.order.status).toBe('waiting');
    expect(waiting.state.waits.map((x) => x.nodeId)).toEqual(['review']);
    const escalated = await play([{ kind: 'advance', ms: 25 * HOUR }]);
    expect(escalated.state.order.status).toBe('declined');
    expect(escalated.state.nodes.get('review')).toMatchObject({ status: 'succeeded', branches: ['escalated'], endedAt: T0 + 24 * HOUR });
    expect(escalated.run.now).toBe(T0 + 25 * HOUR);
    // A declined End undoes the completed steps in reverse.
    expect(escalated.w.rows).toEqual(['write', 'undo write']);
    expect(escalated.state.order.rollback).toEqual({ outcome: 'declined', error: null });
    const timedOut = await play([approve, { kind: 'advance', ms: 3 * HOUR }]);
    expect(timedOut.state.nodes.get('pay')?.branches).toEqual(['timeout']);
    expect(timedOut.run.path).toEqual(['start', 'write', 'review', 'pay', 'late']);
  });

  it('a respond entry answers the next call of its node (a 503 retried after the advance, answered 200 {} then); a call with no respond entry next answers 200 {}', async () => {
    const { state, run, outcome } = await play([approve, event, { kind: 'respond', nodeId: 'call', status: 503, body: { busy: true } }, { kind: 'advance', ms: 10_000 }]);
    expect(outcome).toBeNull();
    expect(run.scriptUsed).toBe(4);
    expect(state.order.status).toBe('completed');
    expect(run.callLog.map((c) => [c.attempt, c.status, c.scripted])).toEqual([
      [1, 503, true],
      [2, 200, false],
    ]);
    expect(run.timeline.map((x) => x.kind)).toContain('node.retry');
    // Without the advance the retry waits: the run rests running, its backoff not fired.
    const resting = await play([approve, event, { kind: 'respond', nodeId: 'call', status: 503, body: null }]);
    expect(resting.state.order.status).toBe('running');
    expect(resting.state.nodes.get('call')).toMatchObject({ status: 'running', attempt: 1 });
  });

  it('an entry that does not apply is a 400 naming its index: an event nobody waits for, a respond with no call out, a hold (no held step), a decision at a node not waiting', async () => {
    const cases: [SimulationStep[], number, RegExp][] = [
      [[{ kind: 'event', event: 'nobody.waits', payload: {} }], 0, /Script entry 0 does not apply: no wait for the event nobody\.waits/],
      [[approve, { kind: 'respond', nodeId: 'call', status: 200, body: null }], 1, /Script entry 1 does not apply: no call of call is out/],
      [[{ kind: 'hold', nodeId: null, action: 'retry' }], 0, /Script entry 0 does not apply: no such wait/],
      [[approve, { kind: 'decision', decision: 'approved', nodeId: 'review', note: null }], 1, /Script entry 1 does not apply: no approval waits at review/],
    ];
    for (const [script, index, message] of cases) {
      const { outcome } = await play(script);
      expect(outcome).toMatchObject({ kind: 'invalid_input', message: expect.stringMatching(message), issues: [{ path: `script.${index}` }] });
    }
  });
});

describe('failSteps (contract 14)', () => {
  it('a named step fails at once as if its retries ran out: no retry timer, completed steps undone in reverse, rolled_back', async () => {
    const { state, run, w } = await play([approve, event], withFailingSteps(flow, ['call']));
    expect(state.order.status).toBe('rolled_back');
    expect(state.order.rollback).toEqual({ outcome: 'rolled_back', error: null });
    expect(state.nodes.get('call')).toMatchObject({ status: 'failed', error: expect.stringContaining('failSteps') });
    expect(state.nodes.get('write')?.status).toBe('rolled_back');
    expect(run.timeline.map((x) => x.kind)).not.toContain('node.retry');
    expect(run.callLog).toEqual([]);
    expect(w.rows).toEqual(['write', 'undo write']);
  });

  it('a wired failure branch takes it instead', async () => {
    const wired = compile(
      [n('start', 'trigger.api'), n('write', 'test.writer'), n('done', 'end', { outcome: 'completed' }), n('fallback', 'end', { outcome: 'failed', reason: 'Fell back' })],
      [{ from: 'start', to: 'write' }, { from: 'write', to: 'done' }, { from: 'write', to: 'fallback', branch: 'failed' }],
    );
    const { state, run } = await play([], withFailingSteps(wired, ['write']));
    expect(run.path).toEqual(['start', 'write', 'fallback']);
    expect(state.order).toMatchObject({ status: 'failed', reason: 'Fell back' });
  });
});

describe('what a body does', () => {
  it('a body that throws after writing leaves nothing behind (the world takes its writes back, as a savepoint)', async () => {
    const failing = compile(
      [n('start', 'trigger.api'), n('ok', 'test.writer'), n('bad', 'test.writer', { fail: true }), n('done', 'end', { outcome: 'completed' })],
      [{ from: 'start', to: 'ok' }, { from: 'ok', to: 'bad' }, { from: 'bad', to: 'done' }],
    );
    const { state, w } = await play([], failing);
    expect(state.order.status).toBe('failed');
    // `bad` wrote and threw: its row is gone; `ok` was undone by the rollback.
    expect(w.rows).toEqual(['ok', 'undo ok']);
  });
});

describe('the budget (contract 14: 1,000 slices or 2 s CPU, 400 saying which)', () => {
  const looping = compile(
    [n('start', 'trigger.api'), n('loop', 'logic.loop', { maxPasses: 1000 }), n('nap', 'wait.delay', { duration: '1s' }), n('done', 'end', { outcome: 'completed' })],
    [{ from: 'start', to: 'loop' }, { from: 'loop', to: 'nap', branch: 'next' }, { from: 'nap', to: 'loop' }, { from: 'loop', to: 'done', branch: 'exhausted' }],
  );

  it('past 1,000 slices (a thousand delays fired by one advance) it stops with a 400 naming the slices', async () => {
    const { outcome, run } = await play([{ kind: 'advance', ms: 2_000_000 }], looping);
    expect(outcome).toBeInstanceOf(SimulationBudgetError);
    expect(outcome).toMatchObject({ kind: 'invalid_input', which: 'slices', message: expect.stringContaining('1,000 slices') });
    expect(run.runState.order.status).toBe('waiting');
  });

  it('past 2 s of CPU it stops with a 400 naming the CPU; stretches of work let other work in between', async () => {
    let cpu = 0;
    const meter = () => (cpu += 7);
    const budget = new SimulationBudget({ slices: 1_000, cpuMs: 2_000 }, meter);
    const { outcome } = await play([{ kind: 'advance', ms: 2_000_000 }], looping, budget);
    expect(outcome).toMatchObject({ which: 'cpu', message: expect.stringContaining('2 s of CPU') });
    expect(budget.slices).toBeLessThan(1_000);
  });

  it('a run within the budget counts its slices', async () => {
    const budget = new SimulationBudget();
    const { state } = await play([{ kind: 'advance', ms: 1_000 * 1000 + 5 }], compile(
      [n('start', 'trigger.api'), n('loop', 'logic.loop', { maxPasses: 3 }), n('nap', 'wait.delay', { duration: '1s' }), n('done', 'end', { outcome: 'completed' })],
      [{ from: 'start', to: 'loop' }, { from: 'loop', to: 'nap', branch: 'next' }, { from: 'nap', to: 'loop' }, { from: 'loop', to: 'done', branch: 'exhausted' }],
    ), budget);
    expect(state.order.status).toBe('completed');
    expect(budget.slices).toBe(4);
  });
});
