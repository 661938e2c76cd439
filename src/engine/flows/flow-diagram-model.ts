// What a flow drawing shows: each node with its shape by kind, each edge with its branch (published versions and drafts alike).
import type { Catalogue } from '../catalogue.js';
import { analyseGraph, type GraphAnalysis } from '../validator.js';

/** The shapes of contract section 13: a node's kind as the drawing shows it. */
export type DiagramShape = 'trigger' | 'step' | 'wait' | 'approval' | 'branch' | 'loop' | 'end' | 'continue' | 'unknown';

export interface DiagramNode {
  id: string;
  type: string;
  label: string;
  shape: DiagramShape;
}

export interface DiagramEdge {
  from: string;
  to: string;
  branch: string;
  /** Whether the branch name is drawn: always when the node can leave by more than one branch. */
  showBranch: boolean;
}

export interface DiagramModel {
  nodes: DiagramNode[];
  edges: DiagramEdge[];
}

/** The shape of a node type: approvals and the two logic nodes get their own, the rest follow the catalogue's kind. */
export function shapeOf(type: string, catalogue: Catalogue): DiagramShape {
  if (type === 'human.approval') return 'approval';
  if (type === 'logic.branch') return 'branch';
  if (type === 'logic.loop') return 'loop';
  const def = catalogue.get(type);
  if (!def) return 'unknown';
  return def.kind === 'logic' ? 'branch' : def.kind;
}

/**
 * The drawing's model of a graph, tolerant of drafts: nodes the validator could read are drawn even when their
 * type is unknown, edges only when both ends exist. Order follows the graph, so the layout is stable for a version.
 * `analysis`: the graph's analysis when the caller already has it (the validator's pass is the costly part).
 */
export function diagramModel(graph: unknown, catalogue: Catalogue, analysis: GraphAnalysis = analyseGraph(graph, catalogue)): DiagramModel {
  const nodes: DiagramNode[] = (analysis.graph?.nodes ?? []).map((n) => ({
    id: n.id,
    type: n.type,
    label: n.label ?? n.id,
    shape: shapeOf(n.type, catalogue),
  }));
  const ids = new Set(nodes.map((n) => n.id));
  const seen = new Set<string>();
  const resolved = analysis.edges.length > 0 || !analysis.graph ? analysis.edges : analysis.graph.edges.map((e) => ({ from: e.from, to: e.to, branch: e.branch ?? '' }));
  const outgoing = new Map<string, Set<string>>();
  for (const e of resolved) outgoing.set(e.from, (outgoing.get(e.from) ?? new Set()).add(e.branch));
  const edges: DiagramEdge[] = [];
  for (const e of resolved) {
    const key = `${e.from}\u0000${e.to}\u0000${e.branch}`;
    if (!ids.has(e.from) || !ids.has(e.to) || seen.has(key)) continue;
    seen.add(key);
    edges.push({ from: e.from, to: e.to, branch: e.branch, showBranch: e.branch !== '' && (outgoing.get(e.from)?.size ?? 0) > 1 });
  }
  return { nodes, edges };
}
