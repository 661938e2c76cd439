// Flow graph validator: lists every problem that keeps a flow from being published (runtime contract section 5).
import type { z } from 'zod';
import type { Catalogue } from './catalogue.js';
import { GRAPH_LIMITS, graphEdgeSchema, graphNodeSchema, graphSchema, type Graph, type GraphNode } from './graph.js';
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
  const rawNodes: unknown[] = typeof input === 'object' && input !== null && 'nodes' in input && Array.isArray(input.nodes) ? input.nodes : [];
  return issues.map((issue) => {
    const [head, index, ...rest] = issue.path;
    if ((head === 'nodes' || head === 'edges') && typeof index === 'number') {
      const where = rest.length > 0 ? `${pathText(rest)}: ` : '';
      if (head === 'nodes') {
        const raw = rawNodes[index];
        const rawId = typeof raw === 'object' && raw !== null && 'id' in raw ? raw.id : undefined;
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

/**
 * The well-formed part of a graph whose shape check failed on some of its nodes or edges, so the
 * other checks still run and every problem is reported in one pass (one bad node id must not hide
 * the rest). `ghosts` are the malformed nodes that still carry a string id, with their raw type:
 * edges to them are not reported again, paths through them still count for reachability, and a
 * malformed trigger still counts as the trigger. Null when the graph itself is not a graph
 * (not an object, `nodes`/`edges` not lists, over the size limits): then only the shape is reported.
 */
function salvage(input: unknown): { graph: Graph; ghosts: Map<string, unknown> } | null {
  if (typeof input !== 'object' || input === null) return null;
  const { nodes, edges } = input as { nodes?: unknown; edges?: unknown };
  if (!Array.isArray(nodes) || !Array.isArray(edges) || nodes.length > GRAPH_LIMITS.nodes || edges.length > GRAPH_LIMITS.edges) return null;
  const graph: Graph = { nodes: [], edges: [] };
  const ghosts = new Map<string, unknown>();
  for (const raw of nodes) {
    const node = graphNodeSchema.safeParse(raw);
    if (node.success) graph.nodes.push(node.data);
    else if (typeof (raw as { id?: unknown } | null)?.id === 'string') ghosts.set((raw as { id: string }).id, (raw as { type?: unknown }).type);
  }
  for (const raw of edges) {
    const edge = graphEdgeSchema.safeParse(raw);
    if (edge.success) graph.edges.push(edge.data);
  }
  return { graph, ghosts };
}

/** Validates a graph against a catalogue and resolves its nodes and edges. */
export function analyseGraph(input: unknown, catalogue: Catalogue): GraphAnalysis {
  const nodes = new Map<string, ResolvedNode>();
  const edges: ResolvedEdge[] = [];
  const parsed = graphSchema.safeParse(input);
  const problems: Problem[] = [];
  let graph: Graph;
  let ghosts = new Map<string, unknown>();
  if (parsed.success) graph = parsed.data;
  else {
    problems.push(...shapeProblems(input, parsed.error.issues));
    const salvaged = salvage(input);
    if (!salvaged) return { problems, graph: null, nodes, edges, triggerId: null };
    ({ graph, ghosts } = salvaged);
  }

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
  const ghostTrigger = [...ghosts.values()].some((type) => typeof type === 'string' && catalogue.get(type)?.kind === 'trigger');
  if (triggers.length === 0 && !ghostTrigger) {
    const kinds = catalogue.list().filter((d) => d.kind === 'trigger').map((d) => d.type);
    problems.push({ message: `The flow has no trigger node; add exactly one (${kinds.join(', ')})` });
  }
  for (const extra of triggers.slice(1)) {
    problems.push({
      nodeId: extra.id,
      message: `Node ${quote(extra.id)} is a second trigger; a flow has exactly one trigger (it already starts at ${quote(triggerId)})`,
    });
  }

  // Edges: endpoints exist, branches exist, one edge per (from, branch), nothing out of End/continue.
  const adjacency = new Map<string, string[]>([...byId.keys(), ...ghosts.keys()].map((id) => [id, []]));
  const wired = new Map<string, string>(); // `${from}\u0000${branch}` -> to
  graph.edges.forEach((edge, i) => {
    const label = `Edge #${i + 1} (${edge.from} → ${edge.to})`;
    // An edge touching a malformed node (reported by the shape check) only counts for reachability.
    if (ghosts.has(edge.from) || ghosts.has(edge.to)) {
      if (adjacency.has(edge.from) && adjacency.has(edge.to)) adjacency.get(edge.from)!.push(edge.to);
      // Its branch is wired all the same (the node it leads to is what is wrong).
      const branch = edge.branch ?? defs.get(edge.from)?.defaultBranch;
      if (byId.has(edge.from) && branch) wired.set(`${edge.from}\u0000${branch}`, edge.to);
      return;
    }
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
  const plainNext = (id: string): string[] => adjacency.get(id)!.filter((to) => !counting.has(to) && byId.has(to));
  const loopTypes = catalogue.list().filter((d) => d.passBranch !== undefined).map((d) => d.type);
  for (const component of stronglyConnected(plain, plainNext)) {
    const cyclic = component.length > 1 || plainNext(component[0]).includes(component[0]);
    if (!cyclic) continue;
    const members = component.reverse(); // Tarjan pops in reverse discovery order
    problems.push({
      nodeId: members[0],
      message:
        `Nodes ${members.map(quote).join(', ')} form a loop that does not pass through a loop node` +
        ` (${loopTypes.join(', ') || 'none in the catalogue'}); every loop needs one to bound its passes`,
    });
  }

  // A graph that only partly passed its shape check is reported, never compiled.
  return { problems, graph: parsed.success ? graph : null, nodes, edges, triggerId };
}

/** The problems of a graph; an empty list means it can be published. */
export function validateGraph(graph: unknown, catalogue: Catalogue): Problem[] {
  return analyseGraph(graph, catalogue).problems;
}
