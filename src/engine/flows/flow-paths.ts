// Every way an order can go through a flow (contract 14), read from its compiled machine; stops at 500 paths.
import type { CompiledFlow } from '../compiler.js';

/** One way through: node ids from the trigger to an End or continue-as-new node, the branch left by at each, the last node. */
export interface FlowPath {
  nodes: string[];
  /** `branches[i]` is the branch taken out of `nodes[i]` (one fewer than the nodes). */
  branches: string[];
  end: string;
}

export interface FlowPaths {
  paths: FlowPath[];
  /** Nodes no path reaches: not reachable from the trigger, or from which no End or continue-as-new node can be reached. */
  unreachable: string[];
  /** True when the enumeration stopped at its limit (500 paths, or its step budget) before listing every path. */
  truncated: boolean;
}

export const PATH_LIMITS = Object.freeze({
  paths: 500,
  /** Moves of the walk at most (each is one edge followed or given back): bounds the work on a 500-node graph with few ends. */
  steps: 200_000,
});

interface Edge {
  branch: string;
  to: string;
}

/** The machine's edges out of each node: the `step.done` and `wait.resolved` transitions (a wired failure branch is one of them). */
function machineEdges(flow: CompiledFlow): Map<string, Edge[]> {
  const out = new Map<string, Edge[]>();
  for (const id of flow.nodes.keys()) {
    const state = flow.config.states[id];
    const transitions = [...(state?.on?.['step.done'] ?? []), ...(state?.on?.['wait.resolved'] ?? [])];
    const edges: Edge[] = [];
    for (const t of transitions) {
      const guard = t.guard;
      if (guard.type !== 'branchIs' || !flow.nodes.has(t.target)) continue;
      if (!edges.some((e) => e.branch === guard.params.branch)) edges.push({ branch: guard.params.branch, to: t.target });
    }
    out.set(id, edges);
  }
  return out;
}

/** Nodes a walk along `next` reaches from `starts` (the starts included). */
function reach(starts: Iterable<string>, next: (id: string) => Iterable<string>): Set<string> {
  const seen = new Set(starts);
  const queue = [...seen];
  while (queue.length > 0)
    for (const to of next(queue.pop()!)) {
      if (seen.has(to)) continue;
      seen.add(to);
      queue.push(to);
    }
  return seen;
}

/**
 * The paths of the compiled flow, depth first from the trigger, each ending at an End or a
 * continue-as-new node. A walk may follow each edge back into a pass-counting node (logic.loop)
 * already on its path at most once, so a loop is shown once around (nodes repeat) and the walk
 * always ends (every cycle of a valid graph passes such a node). The walk stops at `limits.paths`
 * paths or `limits.steps` moves, whichever comes first, without listing the rest (`truncated`).
 */
export function flowPaths(flow: CompiledFlow, limits: { paths: number; steps: number } = PATH_LIMITS): FlowPaths {
  const edges = machineEdges(flow);
  const isEnd = (id: string) => {
    const kind = flow.nodes.get(id)?.def.kind;
    return kind === 'end' || kind === 'continue';
  };
  const loops = new Set([...flow.nodes].filter(([, c]) => c.def.passBranch !== undefined).map(([id]) => id));

  const paths: FlowPath[] = [];
  let truncated = false;
  const nodes = [flow.triggerId];
  const branches: string[] = [];
  const onPath = new Map<string, number>([[flow.triggerId, 1]]);
  /** Back edges into a loop taken on the current path, and which frame took each (null: a plain edge). */
  const usedBack = new Set<string>();
  const frames: { node: string; next: number; back: string | null }[] = [{ node: flow.triggerId, next: 0, back: null }];
  let steps = 0;
  while (frames.length > 0) {
    if (++steps > limits.steps) {
      truncated = true;
      break;
    }
    const top = frames[frames.length - 1];
    const out = edges.get(top.node) ?? [];
    if (top.next === 0 && isEnd(top.node)) {
      if (paths.length >= limits.paths) {
        truncated = true;
        break;
      }
      paths.push({ nodes: [...nodes], branches: [...branches], end: top.node });
    }
    if (top.next >= out.length) {
      frames.pop();
      nodes.pop();
      if (frames.length > 0) branches.pop();
      onPath.set(top.node, (onPath.get(top.node) ?? 1) - 1);
      if (top.back !== null) usedBack.delete(top.back);
      continue;
    }
    const edge = out[top.next++];
    const key = `${top.node}\u0000${edge.branch}`;
    const back = loops.has(edge.to) && (onPath.get(edge.to) ?? 0) > 0;
    if (back && usedBack.has(key)) continue;
    if (back) usedBack.add(key);
    frames.push({ node: edge.to, next: 0, back: back ? key : null });
    nodes.push(edge.to);
    branches.push(edge.branch);
    onPath.set(edge.to, (onPath.get(edge.to) ?? 0) + 1);
  }

  const forward = reach([flow.triggerId], (id) => (edges.get(id) ?? []).map((e) => e.to));
  const into = new Map<string, string[]>();
  for (const [from, list] of edges) for (const e of list) into.set(e.to, [...(into.get(e.to) ?? []), from]);
  const backward = reach([...flow.nodes.keys()].filter(isEnd), (id) => into.get(id) ?? []);
  const unreachable = [...flow.nodes.keys()].filter((id) => !forward.has(id) || !backward.has(id));
  return { paths, unreachable, truncated };
}
