// Flow compiler: turns a validated graph into a JSON XState v5 machine config plus the machine built from it.
//
// Protocol with the host (runtime), which drives the machine with xstate's pure
// initialTransition()/transition() and executes the returned named actions itself:
// - context `{ passes }`; initial state = the trigger; one state per node, keyed by node id.
// - trigger/step/logic: entry `runStep {nodeId}`; the host answers `step.done {nodeId, branch}`
//   (guard `branchIs` per edge) or `step.failed {nodeId, terminal}` (wired failure branch, else
//   `__failed` when terminal, `__rolled_back` otherwise). A pass-counting node's pass branch
//   also runs `countPass` (an assign: it changes the snapshot, it is not in the actions list).
// - wait: entry `openWait {nodeId}`; the host answers `wait.resolved {nodeId, branch}`.
// - end: final with output `{ outcome, reason }`; continue: final with `{ outcome: 'continue', reason: null }`.
// - finals `__failed`, `__rolled_back`, `__cancelled`; `order.cancel` from every non-final state goes to
//   `__cancelled`. It sits on each state, not on the root: xstate's pure transition() does not refuse
//   events to a finished snapshot, and a root handler would turn a completed run into a cancelled one.
// An event no transition accepts leaves the snapshot unchanged (the same object): hosts check `snapshot.can(event)`.
import { assign, setup } from 'xstate';
import type { Catalogue } from './catalogue.js';
import { DomainError } from '../domain/errors.js';
import type { GraphNode } from './graph.js';
import type { NodeTypeDef } from './node-type.js';
import { analyseGraph, type Problem, type ResolvedEdge } from './validator.js';

/** Stored next to every snapshot; raise it when compiled machines change shape. */
export const COMPILER_VERSION = 1;

/** Names of the final states that no node id can take (ids start with a letter). */
export const FINAL_STATES = Object.freeze({ failed: '__failed', rolledBack: '__rolled_back', cancelled: '__cancelled' });

export interface FlowContext {
  passes: Record<string, number>;
}

/** The events the host sends. */
export type FlowEvent =
  | { type: 'step.done'; nodeId: string; branch: string }
  | { type: 'step.failed'; nodeId: string; terminal: boolean }
  | { type: 'wait.resolved'; nodeId: string; branch: string }
  | { type: 'order.cancel' };

/** A finished machine's output (snapshot.output once status is 'done'). */
export interface FlowOutput {
  outcome: 'completed' | 'declined' | 'cancelled' | 'failed' | 'rolled_back' | 'continue';
  reason: string | null;
}

export interface NodeRef {
  nodeId: string;
}
export type ActionRef = { type: 'runStep' | 'openWait' | 'countPass'; params: NodeRef };
export type GuardRef =
  | { type: 'branchIs'; params: { nodeId: string; branch: string } }
  | { type: 'failureIs'; params: { nodeId: string; terminal?: boolean } };
export interface TransitionConfig {
  guard: GuardRef;
  target: string;
  actions?: ActionRef[];
  /** Only on a node's edge to itself: re-enter so its entry action runs again. */
  reenter?: true;
}
export interface StateConfig {
  entry?: ActionRef[];
  on?: Partial<Record<'step.done' | 'step.failed' | 'wait.resolved', TransitionConfig[]>> & { 'order.cancel'?: string };
  type?: 'final';
  output?: FlowOutput;
}
/** The plain-JSON machine config (served over HTTP, JSON round trip safe). */
export interface FlowMachineConfig {
  id: string;
  initial: string;
  context: FlowContext;
  states: Record<string, StateConfig>;
}

/** The named behaviour the JSON config refers to. runStep/openWait are empty: the host executes them. */
export const flowSetup = setup({
  types: {
    context: {} as FlowContext,
    events: {} as FlowEvent,
    output: {} as FlowOutput,
  },
  actions: {
    runStep: (_args, _params: NodeRef) => {},
    openWait: (_args, _params: NodeRef) => {},
    countPass: assign(({ context }, params: NodeRef) => ({
      passes: { ...context.passes, [params.nodeId]: (context.passes[params.nodeId] ?? 0) + 1 },
    })),
  },
  guards: {
    branchIs: ({ event }, params: { nodeId: string; branch: string }) =>
      (event.type === 'step.done' || event.type === 'wait.resolved') && event.nodeId === params.nodeId && event.branch === params.branch,
    failureIs: ({ event }, params: { nodeId: string; terminal?: boolean }) =>
      event.type === 'step.failed' && event.nodeId === params.nodeId && (params.terminal === undefined || event.terminal === params.terminal),
  },
});

/** Builds the executable machine from a config; the root output passes on the final state's output. */
function buildMachine(config: FlowMachineConfig) {
  // The output mapper is a function, so it lives here and not in the JSON config.
  return flowSetup.createMachine({ ...config, output: ({ event }) => event.output as FlowOutput });
}

export type FlowMachine = ReturnType<typeof buildMachine>;

export interface CompiledNode {
  node: GraphNode;
  def: NodeTypeDef;
  params: unknown;
  /** The branches of this node the graph wires (steps see them as `wiredBranches`). */
  wired: readonly string[];
}

export interface CompiledFlow {
  flowKey: string;
  compilerVersion: number;
  triggerId: string;
  config: FlowMachineConfig;
  machine: FlowMachine;
  nodes: Map<string, CompiledNode>;
  /** Every edge with its branch made explicit. */
  edges: readonly ResolvedEdge[];
}

/** A graph with validation problems cannot be compiled (nor published). */
export class InvalidFlowError extends DomainError {
  constructor(readonly flowKey: string, readonly problems: Problem[]) {
    super('flow_invalid', `Flow ${flowKey} has ${problems.length} problem(s): ${problems.map((p) => p.message).join('; ')}`, 'invalid_input', { problems });
    this.name = 'InvalidFlowError';
  }
}

function nodeTransitions(nodeId: string, edges: readonly ResolvedEdge[], passBranch: string | undefined): TransitionConfig[] {
  return edges.map((edge) => {
    const transition: TransitionConfig = { guard: { type: 'branchIs', params: { nodeId, branch: edge.branch } }, target: edge.to };
    if (edge.branch === passBranch) transition.actions = [{ type: 'countPass', params: { nodeId } }];
    if (edge.to === nodeId) transition.reenter = true;
    return transition;
  });
}

function stateFor(compiled: CompiledNode, outgoing: readonly ResolvedEdge[]): StateConfig {
  const { node, def, params } = compiled;
  const nodeId = node.id;
  switch (def.kind) {
    case 'end': {
      const { outcome, reason } = params as { outcome: FlowOutput['outcome']; reason?: string };
      return { type: 'final', output: { outcome, reason: reason ?? null } };
    }
    case 'continue':
      return { type: 'final', output: { outcome: 'continue', reason: null } };
    case 'wait':
      return {
        entry: [{ type: 'openWait', params: { nodeId } }],
        on: { 'wait.resolved': nodeTransitions(nodeId, outgoing, def.passBranch), 'order.cancel': FINAL_STATES.cancelled },
      };
    default: {
      // trigger, step, logic: the host runs the node and reports done or failed.
      const failureEdge = def.failureBranch !== undefined ? outgoing.find((e) => e.branch === def.failureBranch) : undefined;
      const failed: TransitionConfig[] = failureEdge
        ? [{ guard: { type: 'failureIs', params: { nodeId } }, target: failureEdge.to, ...(failureEdge.to === nodeId ? { reenter: true as const } : {}) }]
        : [
            { guard: { type: 'failureIs', params: { nodeId, terminal: true } }, target: FINAL_STATES.failed },
            { guard: { type: 'failureIs', params: { nodeId, terminal: false } }, target: FINAL_STATES.rolledBack },
          ];
      return {
        entry: [{ type: 'runStep', params: { nodeId } }],
        on: {
          'step.done': nodeTransitions(nodeId, outgoing, def.passBranch),
          'step.failed': failed,
          'order.cancel': FINAL_STATES.cancelled,
        },
      };
    }
  }
}

/** Compiles a graph; throws InvalidFlowError when it has problems. Pure: no caching (see FlowCompilerCache). */
export function compileFlow(flowKey: string, graph: unknown, catalogue: Catalogue): CompiledFlow {
  const analysis = analyseGraph(graph, catalogue);
  if (analysis.problems.length > 0 || analysis.triggerId === null) throw new InvalidFlowError(flowKey, analysis.problems);
  const nodes = new Map<string, CompiledNode>();
  for (const [id, resolved] of analysis.nodes)
    nodes.set(id, { node: resolved.node, def: resolved.def, params: resolved.params, wired: analysis.edges.filter((e) => e.from === id).map((e) => e.branch) });

  const states: Record<string, StateConfig> = {};
  for (const [id, compiled] of nodes) {
    states[id] = stateFor(compiled, analysis.edges.filter((e) => e.from === id));
  }
  states[FINAL_STATES.failed] = { type: 'final', output: { outcome: 'failed', reason: null } };
  states[FINAL_STATES.rolledBack] = { type: 'final', output: { outcome: 'rolled_back', reason: null } };
  states[FINAL_STATES.cancelled] = { type: 'final', output: { outcome: 'cancelled', reason: null } };

  const config: FlowMachineConfig = {
    // `.` and `#` are XState id syntax; flow keys like `tpl-x@3` keep their shape.
    id: flowKey.replace(/[.#]/g, '_'),
    initial: analysis.triggerId,
    context: { passes: {} },
    states,
  };
  return {
    flowKey,
    compilerVersion: COMPILER_VERSION,
    triggerId: analysis.triggerId,
    config,
    machine: buildMachine(config),
    nodes,
    edges: analysis.edges,
  };
}

/**
 * Compiled flows memoised by key. The key names a frozen published version (e.g. `tpl-x@3`),
 * so a hit never needs the graph compared again.
 */
export class FlowCompilerCache {
  private readonly compiled = new Map<string, CompiledFlow>();

  constructor(private readonly catalogue: Catalogue) {}

  /** The compiled flow for `flowKey`, compiling `graph` on the first call only. */
  compile(flowKey: string, graph: unknown): CompiledFlow {
    let flow = this.compiled.get(flowKey);
    if (!flow) {
      flow = compileFlow(flowKey, graph, this.catalogue);
      this.compiled.set(flowKey, flow);
    }
    return flow;
  }

  get(flowKey: string): CompiledFlow | undefined {
    return this.compiled.get(flowKey);
  }

  get size(): number {
    return this.compiled.size;
  }

  clear(): void {
    this.compiled.clear();
  }
}
