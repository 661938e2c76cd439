// Flow graph validator: lists every problem that keeps a flow from being published (runtime contract section 5).
import type { z } from 'zod';
import type { Catalogue } from './catalogue.js';
import { graphSchema, type Graph, type GraphNode } from './graph.js';
import type { NodeTypeDef } from './node-type.js';

/** One validation problem; `nodeId` points the editor at the node concerned. */
export interface Problem {
  nodeId?: string;
  message: string;
}

/** A node whose type is known and whose params parsed (defaults filled). */
export interface ResolvedNode {
  node: GraphNode;
  def: NodeTypeDef;
  params: unknown;
}

/** An edge with its branch made explicit (the from-node's default when the edge names none). */
export interface ResolvedEdge {
  from: string;
  to: string;
  branch: string;
}

/** The validator's full result; the compiler builds from it when `problems` is empty. */
export interface GraphAnalysis {
  problems: Problem[];
  graph: Graph | null;
  nodes: Map<string, ResolvedNode>;
  edges: ResolvedEdge[];
  triggerId: string | null;
}

const quote = (s: string): string => `"${s}"`;

/** `a.b.0` style text for an issue path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Turns zod issues on the whole graph into problems, naming the node where there is one. */
function shapeProblems(input: unknown, issues: readonly z.core.$ZodIssue[]): Problem[] {
  const rawNodes = typeof input === 'object' && input !== null && Array.isArray((input as any).nodes) ? (input as any).nodes : [];
  return issues.map((issue) => {
    const [head, index, ...rest] = issue.path;
    if ((head === 'nodes' || head === 'edges') && typeof index === 'number') {
      const where = rest.length > 0 ? `${pathText(rest)}: ` : '';
      if (head === 'nodes') {
        const rawId = rawNodes[index]?.id;
        const name = typeof rawId === 'string' ? `Node ${quote(rawId)}` : `Node #${index + 1}`;
        return { ...(typeof rawId === 'string' ? { nodeId: rawId } : {}), message: `${name}: ${where}${issue.message}` };
      }
      return { message: `Edge #${index + 1}: ${where}${issue.message}` };
    }
    const where = issue.path.length > 0 ? `${pathText(issue.path)}: ` : '';
    return { message: `Graph: ${where}${issue.message}` };
  });
}

/** Strongly connected components (Tarjan); used to find cycles. */
function stronglyConnected(ids: readonly string[], next: (id: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  return components;
}

/** Validates a graph against a catalogue and resolves its nodes and edges. */
export function analyseGraph(input: unknown, catalogue: Catalogue): GraphAnalysis {
  const nodes = new Map<string, ResolvedNode>();
  const edges: ResolvedEdge[] = [];
  const parsed = graphSchema.safeParse(input);
  if (!parsed.success) {
    return { problems: shapeProblems(input, parsed.error.issues), graph: null, nodes, edges, triggerId: null };
  }
  const graph = parsed.data;
  const problems: Problem[] = [];

  // Ids: unique. The first node with an id is the one the rest of the checks use.
  const byId = new Map<string, GraphNode>();
  for (const node of graph.nodes) {
    if (byId.has(node.id)) {
      problems.push({ nodeId: node.id, message: `Node id ${quote(node.id)} is used by more than one node` });
      continue;
    }
    byId.set(node.id, node);
  }

  // Types and params. `defs` holds every node whose type is known, even when its params are not.
  const defs = new Map<string, NodeTypeDef>();
  for (const node of byId.values()) {
    const def = catalogue.get(node.type);
    if (!def) {
      problems.push({ nodeId: node.id, message: `Node ${quote(node.id)} has unknown type ${quote(node.type)}` });
      continue;
    }
    defs.set(node.id, def);
    const result = def.params.safeParse(node.params ?? {});
    if (!result.success) {
      for (const issue of result.error.issues) {
        const where = issue.path.length > 0 ? `param ${quote(pathText(issue.path))}` : 'params';
        problems.push({ nodeId: node.id, message: `Node ${quote(node.id)} (${node.type}): ${where}: ${issue.message}` });
      }
      continue;
    }
    nodes.set(node.id, { node, def, params: result.data });
  }

  // Exactly one trigger.
  const triggers = [...byId.values()].filter((n) => defs.get(n.id)?.kind === 'trigger');
  const triggerId = triggers[0]?.id ?? null;
  if (triggers.length === 0) {
    const kinds = catalogue.list().filter((d) => d.kind === 'trigger').map((d) => d.type);
    problems.push({ message: `The flow has no trigger node; add exactly one (${kinds.join(', ')})` });
  }
  for (const extra of triggers.slice(1)) {
    problems.push({
      nodeId: extra.id,
      message: `Node ${quote(extra.id)} is a second trigger; a flow has exactly one trigger (it already starts at ${quote(triggerId!)})`,
    });
  }

  // Edges: endpoints exist, branches exist, one edge per (from, branch), nothing out of End/continue.
  const adjacency = new Map<string, string[]>([...byId.keys()].map((id) => [id, []]));
  const wired = new Map<string, string>(); // `${from}\u0000${branch}` -> to
  graph.edges.forEach((edge, i) => {
    const label = `Edge #${i + 1} (${edge.from} → ${edge.to})`;
    const fromExists = byId.has(edge.from);
    const toExists = byId.has(edge.to);
    if (!fromExists) problems.push({ message: `${label} starts at unknown node ${quote(edge.from)}` });
    if (!toExists) {
      problems.push({ ...(fromExists ? { nodeId: edge.from } : {}), message: `${label} points to unknown node ${quote(edge.to)}` });
    }
    if (!fromExists || !toExists) return;
    adjacency.get(edge.from)!.push(edge.to);
    if (edge.to === triggerId) {
      problems.push({ nodeId: edge.from, message: `${label} leads back into the trigger; nothing may lead into the trigger` });
    }
    const def = defs.get(edge.from);
    if (!def) return; // unknown type: already reported
    if (def.kind === 'end' || def.kind === 'continue') {
      const what = def.kind === 'end' ? 'an End node' : 'a continue-as-new node';
      problems.push({ nodeId: edge.from, message: `Node ${quote(edge.from)} is ${what} and cannot have outgoing edges` });
      return;
    }
    const resolved = nodes.get(edge.from);
    if (!resolved) return; // params invalid: its branches cannot be known
    const branches = def.branches(resolved.params);
    const branch = edge.branch ?? def.defaultBranch;
    if (branch === null) {
      problems.push({
        nodeId: edge.from,
        message: `${label} needs a branch: ${edge.from} has no default branch (its branches: ${branches.join(', ')})`,
      });
      return;
    }
    if (!branches.includes(branch)) {
      problems.push({
        nodeId: edge.from,
        message: `${label}: node ${quote(edge.from)} (${def.type}) has no branch ${quote(branch)} (its branches: ${branches.join(', ')})`,
      });
      return;
    }
    const key = `${edge.from}\u0000${branch}`;
    const earlier = wired.get(key);
    if (earlier !== undefined) {
      problems.push({
        nodeId: edge.from,
        message: `Branch ${quote(branch)} of node ${quote(edge.from)} is connected twice (to ${quote(earlier)} and ${quote(edge.to)}); a branch leads to one node`,
      });
      return;
    }
    wired.set(key, edge.to);
    edges.push({ from: edge.from, to: edge.to, branch });
  });

  // Every branch that is not optional leads somewhere, so a run can never stall on an unwired branch.
  for (const { node, def, params } of nodes.values()) {
    if (def.kind === 'end' || def.kind === 'continue') continue;
    const optional = def.optionalBranches ?? [];
    for (const branch of def.branches(params)) {
      if (optional.includes(branch) || wired.has(`${node.id}\u0000${branch}`)) continue;
      problems.push({ nodeId: node.id, message: `Branch ${quote(branch)} of node ${quote(node.id)} (${def.type}) is not connected to any node` });
    }
  }

  // Every node is reachable from the trigger.
  if (triggerId !== null) {
    const seen = new Set<string>([triggerId]);
    const queue = [triggerId];
    while (queue.length > 0) {
      for (const next of adjacency.get(queue.shift()!)!) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    for (const id of byId.keys()) {
      if (seen.has(id) || triggers.some((t) => t.id === id)) continue; // extra triggers are reported above
      problems.push({ nodeId: id, message: `Node ${quote(id)} cannot be reached from the trigger ${quote(triggerId)}` });
    }
  }

  // Cycles only through a pass-counting node: without such nodes the graph must be acyclic.
  const counting = new Set([...defs].filter(([, def]) => def.passBranch !== undefined).map(([id]) => id));
  const plain = [...byId.keys()].filter((id) => !counting.has(id));
  const plainNext = (id: string): string[] => adjacency.get(id)!.filter((to) => !counting.has(to));
  const loopTypes = catalogue.list().filter((d) => d.passBranch !== undefined).map((d) => d.type);
  for (const component of stronglyConnected(plain, plainNext)) {
    const cyclic = component.length > 1 || plainNext(component[0]!).includes(component[0]!);
    if (!cyclic) continue;
    const members = component.reverse(); // Tarjan pops in reverse discovery order
    problems.push({
      nodeId: members[0],
      message:
        `Nodes ${members.map(quote).join(', ')} form a loop that does not pass through a loop node` +
        ` (${loopTypes.join(', ') || 'none in the catalogue'}); every loop needs one to bound its passes`,
    });
  }

  return { problems, graph, nodes, edges, triggerId };
}

/** The problems of a graph; an empty list means it can be published. */
export function validateGraph(graph: unknown, catalogue: Catalogue): Problem[] {
  return analyseGraph(graph, catalogue).problems;
}
