// Tests for the flow compiler: the machine protocol the runtime drives with xstate's pure transition functions.
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  COMPILER_VERSION,
  compileFlow,
  FlowCompilerCache,
  InvalidFlowError,
  type FlowEvent,
  type FlowMachine,
} from '../../../src/engine/compiler.js';
import type { Graph } from '../../../src/engine/graph.js';
import type { StepContext } from '../../../src/engine/node-type.js';
import { logicLoop } from '../../../src/nodes/logic-loop.js';
import { linearGraph, testCatalogue } from './test-catalogue.js';

type Snapshot = ReturnType<typeof initialTransition<FlowMachine>>[0];

/** Host-visible part of the actions list (exec and info are xstate internals). */
const visible = (actions: readonly { type: string; params?: unknown }[]) => actions.map(({ type, params }) => ({ type, params }));

/** A flow exercising every kind: trigger, step with failure branch, branch, approval, loop + wait, delay, ends, continue. */
function fullGraph(): Graph {
  return {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'charge', type: 'test.step' },
      { id: 'refund', type: 'test.step' },
      { id: 'big', type: 'logic.branch', params: { when: { path: 'order.total', op: 'gt', value: 100000 } } },
      { id: 'approve', type: 'human.approval' },
      { id: 'loop', type: 'logic.loop', params: { maxPasses: 2 } },
      { id: 'wait', type: 'wait.event', params: { event: 'seller.responded', timeout: '2d' } },
      { id: 'cool', type: 'wait.delay', params: { duration: '1h' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      { id: 'declined', type: 'end', params: { outcome: 'declined', reason: 'Refused by approver' } },
      { id: 'gave_up', type: 'end', params: { outcome: 'failed', reason: 'Sellers did not answer' } },
      { id: 'again', type: 'logic.continue' },
    ],
    edges: [
      { from: 'start', to: 'charge' },
      { from: 'charge', to: 'big' },
      { from: 'charge', to: 'refund', branch: 'failed' },
      { from: 'refund', to: 'declined' },
      { from: 'refund', to: 'again', branch: 'failed' },
      { from: 'big', to: 'approve', branch: 'true' },
      { from: 'big', to: 'loop', branch: 'false' },
      { from: 'approve', to: 'loop', branch: 'approved' },
      { from: 'approve', to: 'declined', branch: 'rejected' },
      { from: 'approve', to: 'declined', branch: 'escalated' },
      { from: 'loop', to: 'wait' },
      { from: 'loop', to: 'gave_up', branch: 'exhausted' },
      { from: 'wait', to: 'cool', branch: 'received' },
      { from: 'wait', to: 'loop', branch: 'timeout' },
      { from: 'cool', to: 'done' },
    ],
  };
}

/** Events that take the full graph from the trigger through the loop's first pass to the wait. */
const TO_WAIT: FlowEvent[] = [
  { type: 'step.done', nodeId: 'start', branch: 'ok' },
  { type: 'step.done', nodeId: 'charge', branch: 'ok' },
  { type: 'step.done', nodeId: 'big', branch: 'false' },
  { type: 'step.done', nodeId: 'loop', branch: 'next' },
];

function compile(graph: Graph = fullGraph()) {
  return compileFlow('tpl-test@1', graph, testCatalogue);
}

/** Feeds events in order from the initial snapshot; returns the last snapshot and actions. */
function drive(machine: FlowMachine, events: FlowEvent[]) {
  let [snapshot, actions] = initialTransition(machine);
  for (const event of events) [snapshot, actions] = transition(machine, snapshot, event);
  return { snapshot: snapshot as Snapshot, actions };
}

describe('compiler', () => {
  it('compiler: COMPILER_VERSION is an integer stored with every snapshot', () => {
    expect(Number.isInteger(COMPILER_VERSION)).toBe(true);
    expect(compile().compilerVersion).toBe(COMPILER_VERSION);
  });

  it('API GET machine: the machine config survives a JSON round trip unchanged', () => {
    const { config } = compile();
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
    expect(config.initial).toBe('start');
    expect(Object.keys(config.states)).toEqual(expect.arrayContaining(['start', 'charge', '__failed', '__rolled_back', '__cancelled']));
  });

  it('protocol: initialTransition enters the trigger and returns runStep { nodeId } for it', () => {
    const { machine } = compile();
    const [snapshot, actions] = initialTransition(machine);
    expect(snapshot.value).toBe('start');
    expect(snapshot.context).toEqual({ passes: {} });
    expect(visible(actions)).toEqual([{ type: 'runStep', params: { nodeId: 'start' } }]);
  });

  it('protocol: step.done routes by branch and the next node\'s runStep comes back', () => {
    const { machine } = compile();
    const { snapshot, actions } = drive(machine, [{ type: 'step.done', nodeId: 'start', branch: 'ok' }]);
    expect(snapshot.value).toBe('charge');
    expect(visible(actions)).toEqual([{ type: 'runStep', params: { nodeId: 'charge' } }]);

    const yes = drive(machine, [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.done', nodeId: 'charge', branch: 'ok' },
      { type: 'step.done', nodeId: 'big', branch: 'true' },
    ]);
    expect(yes.snapshot.value).toBe('approve');
    expect(visible(yes.actions)).toEqual([{ type: 'openWait', params: { nodeId: 'approve' } }]);

    const no = drive(machine, [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.done', nodeId: 'charge', branch: 'ok' },
      { type: 'step.done', nodeId: 'big', branch: 'false' },
    ]);
    expect(no.snapshot.value).toBe('loop');
    expect(visible(no.actions)).toEqual([{ type: 'runStep', params: { nodeId: 'loop' } }]);
    const waiting = drive(machine, TO_WAIT);
    expect(waiting.snapshot.value).toBe('wait');
    expect(visible(waiting.actions)).toEqual([{ type: 'openWait', params: { nodeId: 'wait' } }]);
  });

  it('protocol: an event for another node, or an unwired branch, leaves the snapshot unchanged', () => {
    const { machine } = compile();
    const [start] = initialTransition(machine);
    const [stale, actions] = transition(machine, start, { type: 'step.done', nodeId: 'charge', branch: 'ok' });
    expect(stale).toBe(start);
    expect(actions).toEqual([]);
    expect(start.can({ type: 'step.done', nodeId: 'start', branch: 'nope' })).toBe(false);
    expect(start.can({ type: 'step.done', nodeId: 'start', branch: 'ok' })).toBe(true);
  });

  it('protocol: wait.resolved routes a wait node by branch', () => {
    const { machine } = compile();
    const base: FlowEvent[] = [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.done', nodeId: 'charge', branch: 'ok' },
      { type: 'step.done', nodeId: 'big', branch: 'true' },
    ];
    const rejected = drive(machine, [...base, { type: 'wait.resolved', nodeId: 'approve', branch: 'rejected' }]);
    expect(rejected.snapshot.status).toBe('done');
    expect(rejected.snapshot.output).toEqual({ outcome: 'declined', reason: 'Refused by approver' });
    const approved = drive(machine, [...base, { type: 'wait.resolved', nodeId: 'approve', branch: 'approved' }]);
    expect(approved.snapshot.value).toBe('loop');
    expect(visible(approved.actions)).toEqual([{ type: 'runStep', params: { nodeId: 'loop' } }]);
  });

  it('contract 5: logic.loop counts passes in context.passes and exhausts after maxPasses (countPass is applied, not listed)', () => {
    const { machine, nodes } = compile();
    const loop = nodes.get('loop')!;
    let { snapshot, actions } = drive(machine, TO_WAIT.slice(0, 3));
    expect(snapshot.value).toBe('loop');
    expect(snapshot.context.passes).toEqual({});
    // Host loop: run the loop node with the snapshot's passes, feed its branch back, time the wait out.
    const seen: string[] = [];
    const passesSeen: number[] = [];
    for (let guard = 0; snapshot.status === 'active' && guard < 20; guard++) {
      if (snapshot.value === 'loop') {
        passesSeen.push(snapshot.context.passes.loop ?? 0);
        const result = logicLoop.run!({ nodeId: 'loop', params: loop.params, passes: snapshot.context.passes } as StepContext<any>) as { branch: string };
        seen.push(result.branch);
        [snapshot, actions] = transition(machine, snapshot, { type: 'step.done', nodeId: 'loop', branch: result.branch });
        expect(actions.map((a) => a.type)).not.toContain('countPass');
      } else {
        [snapshot, actions] = transition(machine, snapshot, { type: 'wait.resolved', nodeId: 'wait', branch: 'timeout' });
      }
    }
    expect(seen).toEqual(['next', 'next', 'exhausted']);
    expect(passesSeen).toEqual([0, 1, 2]);
    expect(snapshot.context.passes).toEqual({ loop: 2 });
    expect(snapshot.output).toEqual({ outcome: 'failed', reason: 'Sellers did not answer' });
  });

  it('contract 5: a loop node wired to itself re-enters and runs again', () => {
    const graph: Graph = {
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'loop', type: 'logic.loop', params: { maxPasses: 3 } },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'loop' },
        { from: 'loop', to: 'loop' },
        { from: 'loop', to: 'done', branch: 'exhausted' },
      ],
    };
    const { machine } = compile(graph);
    const { snapshot, actions } = drive(machine, [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.done', nodeId: 'loop', branch: 'next' },
    ]);
    expect(snapshot.value).toBe('loop');
    expect(snapshot.context.passes).toEqual({ loop: 1 });
    expect(visible(actions)).toEqual([{ type: 'runStep', params: { nodeId: 'loop' } }]);
  });

  it('contract 5: a failed step goes to its wired failure branch, terminal or not', () => {
    const { machine } = compile();
    for (const terminal of [true, false]) {
      const { snapshot, actions } = drive(machine, [
        { type: 'step.done', nodeId: 'start', branch: 'ok' },
        { type: 'step.failed', nodeId: 'charge', terminal },
      ]);
      expect(snapshot.value).toBe('refund');
      expect(visible(actions)).toEqual([{ type: 'runStep', params: { nodeId: 'refund' } }]);
    }
  });

  it('contract 5: without a failure branch a terminal failure ends in __failed, a retryable one (after retries) in __rolled_back', () => {
    const { machine } = compile(linearGraph());
    const terminal = drive(machine, [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.failed', nodeId: 'a', terminal: true },
    ]);
    expect(terminal.snapshot.value).toBe('__failed');
    expect(terminal.snapshot.output).toEqual({ outcome: 'failed', reason: null });
    const exhausted = drive(machine, [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.failed', nodeId: 'a', terminal: false },
    ]);
    expect(exhausted.snapshot.value).toBe('__rolled_back');
    expect(exhausted.snapshot.output).toEqual({ outcome: 'rolled_back', reason: null });
    const trigger = drive(machine, [{ type: 'step.failed', nodeId: 'start', terminal: true }]);
    expect(trigger.snapshot.value).toBe('__failed');
  });

  it('spec cancel: order.cancel from every unfinished state reaches __cancelled; a finished run is unchanged', () => {
    const { machine, config } = compile();
    const paths: FlowEvent[][] = [
      [],
      [{ type: 'step.done', nodeId: 'start', branch: 'ok' }],
      [
        { type: 'step.done', nodeId: 'start', branch: 'ok' },
        { type: 'step.done', nodeId: 'charge', branch: 'ok' },
        { type: 'step.done', nodeId: 'big', branch: 'true' },
      ],
      TO_WAIT.slice(0, 3),
      TO_WAIT,
      [...TO_WAIT, { type: 'wait.resolved', nodeId: 'wait', branch: 'received' }],
    ];
    const reached = new Set<string>();
    for (const events of paths) {
      const { snapshot: before } = drive(machine, events);
      reached.add(String(before.value));
      const [after, actions] = transition(machine, before, { type: 'order.cancel' });
      expect(after.value).toBe('__cancelled');
      expect(after.status).toBe('done');
      expect(after.output).toEqual({ outcome: 'cancelled', reason: null });
      expect(actions).toEqual([]); // no step runs on the way out
    }
    expect([...reached]).toEqual(['start', 'charge', 'approve', 'loop', 'wait', 'cool']);
    for (const [id, state] of Object.entries(config.states)) {
      expect(state.on?.['order.cancel'], id).toBe(state.type === 'final' ? undefined : '__cancelled');
    }

    // xstate's transition() does not refuse events to a done snapshot, so finals must not listen.
    const { snapshot: finished } = drive(machine, [{ type: 'step.failed', nodeId: 'start', terminal: true }]);
    const [same] = transition(machine, finished, { type: 'order.cancel' });
    expect(same.value).toBe('__failed');
    expect(same.output).toEqual({ outcome: 'failed', reason: null });
  });

  it('contract 5: End nodes end the machine with { outcome, reason }; continue ends with outcome continue', () => {
    const { machine } = compile();
    const done = drive(machine, [
      ...TO_WAIT,
      { type: 'wait.resolved', nodeId: 'wait', branch: 'received' },
      { type: 'wait.resolved', nodeId: 'cool', branch: 'next' },
    ]);
    expect(done.snapshot.status).toBe('done');
    expect(done.snapshot.output).toEqual({ outcome: 'completed', reason: null });

    const graph = linearGraph();
    graph.nodes[2] = { id: 'done', type: 'logic.continue' };
    const cont = drive(compile(graph).machine, [
      { type: 'step.done', nodeId: 'start', branch: 'ok' },
      { type: 'step.done', nodeId: 'a', branch: 'ok' },
    ]);
    expect(cont.snapshot.status).toBe('done');
    expect(cont.snapshot.output).toEqual({ outcome: 'continue', reason: null });
  });

  it('rule 7: a persisted snapshot (JSON) rehydrates and continues where it stopped', () => {
    const { machine } = compile();
    const { snapshot } = drive(machine, [...TO_WAIT, { type: 'wait.resolved', nodeId: 'wait', branch: 'timeout' }]);
    const stored = JSON.parse(JSON.stringify(machine.getPersistedSnapshot(snapshot)));
    const restored = machine.resolveState(stored);
    expect(restored.value).toBe('loop');
    expect(restored.context.passes).toEqual({ loop: 1 });
    const [next, actions] = transition(machine, restored, { type: 'step.done', nodeId: 'loop', branch: 'next' });
    expect(next.value).toBe('wait');
    expect(next.context.passes).toEqual({ loop: 2 });
    expect(visible(actions)).toEqual([{ type: 'openWait', params: { nodeId: 'wait' } }]);
  });

  it('compiler: the result carries nodes with parsed params and edges with explicit branches', () => {
    const flow = compile();
    expect(flow.triggerId).toBe('start');
    expect(flow.nodes.get('approve')!.params).toEqual({ title: 'Approve order {{order.id}}', assignee: 'manager', timeout: '2d' });
    expect(flow.nodes.get('approve')!.def.type).toBe('human.approval');
    expect(flow.edges).toContainEqual({ from: 'charge', to: 'big', branch: 'ok' });
    expect(flow.edges).toContainEqual({ from: 'loop', to: 'wait', branch: 'next' });
  });

  it('contract 5: a graph with problems does not compile', () => {
    const graph = linearGraph();
    graph.edges[1]!.branch = 'failed';
    try {
      compile(graph);
      expect.fail('compileFlow accepted an invalid graph');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidFlowError);
      expect((err as InvalidFlowError).problems).toEqual([{ nodeId: 'a', message: expect.stringMatching(/Branch "ok" of node "a"/) }]);
      expect((err as InvalidFlowError).code).toBe('flow_invalid');
    }
  });

  it('compiler: FlowCompilerCache compiles a flow key once and reuses it', () => {
    const cache = new FlowCompilerCache(testCatalogue);
    const first = cache.compile('tpl-x@1', linearGraph());
    expect(cache.compile('tpl-x@1', linearGraph())).toBe(first);
    expect(cache.get('tpl-x@1')).toBe(first);
    const second = cache.compile('tpl-x@2', fullGraph());
    expect(second).not.toBe(first);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.get('tpl-x@1')).toBeUndefined();
  });
});
