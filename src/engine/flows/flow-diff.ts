// What changed between two graphs of a flow (contract 14): nodes added, removed and changed (by field), edges added and removed.
import { isDeepStrictEqual } from 'node:util';
import type { Catalogue } from '../catalogue.js';

export interface DiffEdge {
  from: string;
  to: string;
  /** The branch the edge leaves by (the from-node type's default when the edge names none); null when it cannot be known. */
  branch: string | null;
}

export interface FlowDiff {
  nodes: { added: string[]; removed: string[]; changed: { id: string; fields: string[] }[] };
  edges: { added: DiffEdge[]; removed: DiffEdge[] };
}

interface LooseNode {
  id: string;
  type: unknown;
  label: unknown;
  params: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The nodes of a graph by id, read leniently (a draft may be invalid): the first node of an id counts. */
function nodesOf(graph: unknown): Map<string, LooseNode> {
  const out = new Map<string, LooseNode>();
  const list = isRecord(graph) && Array.isArray(graph.nodes) ? graph.nodes : [];
  for (const n of list) {
    if (!isRecord(n) || typeof n.id !== 'string' || out.has(n.id)) continue;
    out.set(n.id, { id: n.id, type: n.type, label: n.label, params: isRecord(n.params) ? n.params : {} });
  }
  return out;
}

/** The edges of a graph with their branch made explicit where the from-node's type gives a default. */
function edgesOf(graph: unknown, nodes: Map<string, LooseNode>, catalogue: Catalogue): DiffEdge[] {
  const list = isRecord(graph) && Array.isArray(graph.edges) ? graph.edges : [];
  const out: DiffEdge[] = [];
  for (const e of list) {
    if (!isRecord(e) || typeof e.from !== 'string' || typeof e.to !== 'string') continue;
    const type = nodes.get(e.from)?.type;
    const branch = typeof e.branch === 'string' ? e.branch : typeof type === 'string' ? (catalogue.get(type)?.defaultBranch ?? null) : null;
    out.push({ from: e.from, to: e.to, branch });
  }
  return out;
}

const edgeKey = (e: DiffEdge) => `${e.from}\u0000${e.to}\u0000${e.branch ?? ''}`;

/** The fields of a node that differ: `type`, `label`, `params.<key>` for each top-level param key added, removed or changed. */
function changedFields(a: LooseNode, b: LooseNode): string[] {
  const fields: string[] = [];
  if (!isDeepStrictEqual(a.type, b.type)) fields.push('type');
  if (!isDeepStrictEqual(a.label, b.label)) fields.push('label');
  const keys = [...new Set([...Object.keys(a.params), ...Object.keys(b.params)])].sort();
  for (const key of keys) if (!isDeepStrictEqual(a.params[key], b.params[key])) fields.push(`params.${key}`);
  return fields;
}

/** The diff from graph `from` to graph `to`; lists keep the order of the graph they come from. */
export function diffGraphs(from: unknown, to: unknown, catalogue: Catalogue): FlowDiff {
  const a = nodesOf(from);
  const b = nodesOf(to);
  const changed: FlowDiff['nodes']['changed'] = [];
  for (const [id, node] of b) {
    const before = a.get(id);
    if (!before) continue;
    const fields = changedFields(before, node);
    if (fields.length > 0) changed.push({ id, fields });
  }
  const ea = edgesOf(from, a, catalogue);
  const eb = edgesOf(to, b, catalogue);
  const ka = new Set(ea.map(edgeKey));
  const kb = new Set(eb.map(edgeKey));
  return {
    nodes: { added: [...b.keys()].filter((id) => !a.has(id)), removed: [...a.keys()].filter((id) => !b.has(id)), changed },
    edges: { added: eb.filter((e) => !ka.has(edgeKey(e))), removed: ea.filter((e) => !kb.has(edgeKey(e))) },
  };
}
