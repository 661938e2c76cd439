// A flow graph as the editor shows it: pretty JSON with nodes before edges and each node's and edge's keys in reading order.
// (PostgreSQL's jsonb stores keys by length, which would put "edges" first and "to" before "from".)

const NODE_KEYS = ['id', 'type', 'label', 'params'];
const EDGE_KEYS = ['from', 'to', 'branch'];

/** The object with `first` keys in that order, then any others as they come. */
function ordered(value: unknown, first: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  return Object.fromEntries([...first.filter((k) => k in o).map((k) => [k, o[k]]), ...Object.entries(o).filter(([k]) => !first.includes(k))]);
}

export function graphText(graph: unknown): string {
  if (typeof graph !== 'object' || graph === null) return JSON.stringify(graph, null, 2);
  const g = ordered(graph, ['nodes', 'edges']) as Record<string, unknown>;
  if (Array.isArray(g.nodes)) g.nodes = g.nodes.map((n) => ordered(n, NODE_KEYS));
  if (Array.isArray(g.edges)) g.edges = g.edges.map((e) => ordered(e, EDGE_KEYS));
  return JSON.stringify(g, null, 2);
}
