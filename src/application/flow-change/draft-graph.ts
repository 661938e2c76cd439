// A saved draft as an editable graph: a deep copy whose nodes and edges the edits rewrite, with the graph questions they ask.
import { DomainError } from '../../domain/errors.js';
import type { Catalogue } from '../../engine/catalogue.js';
import type { NodeTypeDef } from '../../engine/node-type.js';
import { PRIMARY_BRANCHES } from './branch-words.js';

/** A node as a draft holds it (drafts may be invalid: only `id` and `type` are relied on). */
export interface DraftNode {
  id: string;
  type: string;
  label?: string;
  params?: Record<string, unknown>;
  [key: string]: unknown;
}

/** An edge as a draft holds it; no `branch` means the from-node's default branch. */
export interface DraftEdge {
  from: string;
  to: string;
  branch?: string;
  [key: string]: unknown;
}

/** The graph being edited: other top-level keys of the draft (editor positions) are kept as they were. */
export interface DraftGraph {
  nodes: DraftNode[];
  edges: DraftEdge[];
  [key: string]: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy of a saved draft to edit; a draft that is not a `{ nodes, edges }` graph is refused. */
export function copyDraft(graph: unknown): DraftGraph {
  if (!isRecord(graph) || !Array.isArray(graph.nodes) || !Array.isArray(graph.edges)) {
    throw new DomainError('draft_not_a_graph', 'The saved draft is not a { nodes, edges } graph, so no change can be drafted on it', 'invalid_input');
  }
  return structuredClone(graph) as DraftGraph;
}

/** The nodes an edit can name: those with a string id and type (malformed ones stay in the graph untouched). */
export function namedNodes(graph: DraftGraph): DraftNode[] {
  return graph.nodes.filter((n): n is DraftNode => isRecord(n) && typeof n.id === 'string' && typeof n.type === 'string');
}

export function findNode(graph: DraftGraph, id: string): DraftNode | undefined {
  return namedNodes(graph).find((n) => n.id === id);
}

/** `"Label" (id)`, or `"id"` for a node without a label: how summaries name a node. */
export function nodeName(node: DraftNode): string {
  return typeof node.label === 'string' && node.label.length > 0 ? `"${node.label}" (${node.id})` : `"${node.id}"`;
}

/** The node's params parsed with its type's defaults, or null when the type is unknown or the params do not parse. */
export function parsedParams(node: DraftNode, catalogue: Catalogue): unknown {
  const def = catalogue.get(node.type);
  const result = def?.params.safeParse(node.params ?? {});
  return result?.success ? result.data : null;
}

/** The branches a node may leave by; a node whose params do not parse has its default branch only. */
export function branchesOf(node: DraftNode, catalogue: Catalogue): readonly string[] {
  const def = catalogue.get(node.type);
  if (!def) return [];
  const params = parsedParams(node, catalogue);
  if (params !== null) return def.branches(params);
  return def.defaultBranch ? [def.defaultBranch] : [];
}

/** The branch an edge leaves by (its from-node's default when it names none). */
export function edgeBranch(edge: DraftEdge, graph: DraftGraph, catalogue: Catalogue): string | null {
  if (typeof edge.branch === 'string') return edge.branch;
  const from = findNode(graph, edge.from);
  return (from && catalogue.get(from.type)?.defaultBranch) ?? null;
}

/** The branch a node continues on when all goes well (ok, approved, received, ...). */
export function primaryBranch(def: NodeTypeDef, branches: readonly string[]): string | null {
  return PRIMARY_BRANCHES.find((b) => branches.includes(b)) ?? def.defaultBranch ?? branches[0] ?? null;
}

/** The edge a node continues on when all goes well: on its primary branch, else its first edge. */
export function primaryEdge(graph: DraftGraph, node: DraftNode, catalogue: Catalogue): DraftEdge | undefined {
  const outgoing = graph.edges.filter((e) => isRecord(e) && e.from === node.id);
  const def = catalogue.get(node.type);
  const primary = def ? primaryBranch(def, branchesOf(node, catalogue)) : null;
  return outgoing.find((e) => edgeBranch(e, graph, catalogue) === primary) ?? outgoing[0];
}

/** An edge from `from` on `branch`, naming the branch only when it is not the node's default (as the built-in flows do). */
export function newEdge(from: DraftNode, branch: string | null, to: string, catalogue: Catalogue): DraftEdge {
  const def = catalogue.get(from.type);
  return branch === null || def?.defaultBranch === branch ? { from: from.id, to } : { from: from.id, to, branch };
}

/** An id not yet used in the graph: `base`, else `base_2`, `base_3`, ... */
export function unusedId(graph: DraftGraph, base: string): string {
  const taken = new Set(namedNodes(graph).map((n) => n.id));
  const clean = base.replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '').slice(0, 60) || 'step';
  if (!taken.has(clean)) return clean;
  for (let i = 2; ; i++) if (!taken.has(`${clean}_${i}`)) return `${clean}_${i}`;
}

/** The trigger node (the first node whose type is a trigger), if any. */
export function triggerNode(graph: DraftGraph, catalogue: Catalogue): DraftNode | undefined {
  return namedNodes(graph).find((n) => catalogue.get(n.type)?.kind === 'trigger');
}

/** Ids of the nodes reachable from the trigger (empty when there is no trigger). */
export function reachableIds(graph: DraftGraph, catalogue: Catalogue): Set<string> {
  const start = triggerNode(graph, catalogue);
  const seen = new Set<string>();
  if (!start) return seen;
  seen.add(start.id);
  const queue = [start.id];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const e of graph.edges) {
      if (isRecord(e) && e.from === id && typeof e.to === 'string' && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return seen;
}

/** Removes a node and every edge touching it. */
export function deleteNode(graph: DraftGraph, id: string): void {
  graph.nodes = graph.nodes.filter((n) => !(isRecord(n) && n.id === id));
  graph.edges = graph.edges.filter((e) => !(isRecord(e) && (e.from === id || e.to === id)));
}

/**
 * Removes the nodes an edit cut off: reachable from the trigger before (`before`), not any more. Returns them
 * (so the summary can say so); nodes that were already unreachable are left for the validator to report.
 */
export function pruneCutOff(graph: DraftGraph, before: Set<string>, catalogue: Catalogue): DraftNode[] {
  const after = reachableIds(graph, catalogue);
  const cut = namedNodes(graph).filter((n) => before.has(n.id) && !after.has(n.id));
  for (const n of cut) deleteNode(graph, n.id);
  return cut;
}

/** How summaries name the node with this id (its bare id when no such node is in the graph). */
export function nameById(graph: DraftGraph, id: string): string {
  const node = findNode(graph, id);
  return node ? nodeName(node) : `"${id}"`;
}
