// What a node body sees of the run (params, order, vars, earlier outputs, pass counters), built from the run state alone.
import type { CompiledFlow } from '../compiler.js';
import type { OrderView, StepContext } from '../node-type.js';
import type { RunOrder, RunState } from './run-state.js';

/** A step context without what the host hands in (the ports and the clock). */
export type StepView = Omit<StepContext<unknown>, 'ports' | 'clock'>;

export function stepView(flow: CompiledFlow, state: Pick<RunState, 'order' | 'nodes' | 'snapshot'>, nodeId: string, attempt: number): StepView {
  const compiled = flow.nodes.get(nodeId);
  if (!compiled) throw new Error(`node ${nodeId} is not in flow ${flow.flowKey}`);
  const nodes: Record<string, unknown> = {};
  for (const [id, rec] of state.nodes) if (rec.output !== null && rec.output !== undefined) nodes[id] = rec.output;
  return {
    nodeId,
    params: compiled.params,
    attempt,
    order: orderView(state.order),
    vars: state.order.vars,
    nodes,
    passes: { ...(state.snapshot?.context.passes ?? {}) },
    wiredBranches: compiled.wired,
  };
}

/** What a step sees of the order: the host's facts (typed by the plug-in's merging into OrderView), then the run's own fields. */
export function orderView(o: RunOrder): OrderView {
  const { id, flowId, flowVersion, generation, instanceId, input, meta } = o;
  return { ...o.facts, id, flowId, flowVersion, generation, instanceId, input, meta } as OrderView;
}
