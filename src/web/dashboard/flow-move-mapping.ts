// Which nodes of an old flow version need a mapping row on the Move form (contract 15): those with no node of the same id and type in the target.

/** A node of a version's graph as the Move form reads it. */
export interface MoveNode {
  id: string;
  type: string;
  label: string;
  /** `wait.event`'s event name: a parked event wait maps only to a wait for the same event. */
  event: string | null;
}

/** An old node that does not map by id, with the target's nodes it may be mapped to (same type). */
export interface MappingRow {
  node: MoveNode;
  /** Why it does not map by id: the target has no node with its id, or has one of another type or event. */
  why: 'missing' | 'other-type' | 'other-event';
  options: MoveNode[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The nodes of a stored graph (anything malformed is left out: a published graph was validated when it was published). */
export function moveNodes(graph: unknown): MoveNode[] {
  const nodes = isObject(graph) && Array.isArray(graph.nodes) ? (graph.nodes as unknown[]) : [];
  return nodes.filter(isObject).flatMap((n) => {
    if (typeof n.id !== 'string' || typeof n.type !== 'string') return [];
    const params = isObject(n.params) ? n.params : {};
    // wait.event's default event (its params schema) when the graph leaves it out.
    const event = n.type === 'wait.event' ? (typeof params.event === 'string' ? params.event : 'payment.received') : null;
    return [{ id: n.id, type: n.type, label: typeof n.label === 'string' && n.label ? n.label : n.id, event }];
  });
}

/**
 * The rows of a move from `from` to `to`: every old node whose id the target lacks, or holds with another type (or,
 * for `wait.event`, another event), offered the target's nodes of its type. A node that maps by id needs no row: the
 * route maps it so when `mapping` does not name it. `final` names the types that end a run (End, continue-as-new):
 * an order that reached one has ended and never moves, so they get no row.
 */
export function mappingRows(from: unknown, to: unknown, final: ReadonlySet<string> = new Set()): MappingRow[] {
  const target = moveNodes(to);
  const byId = new Map(target.map((n) => [n.id, n]));
  const rows: MappingRow[] = [];
  for (const node of moveNodes(from)) {
    if (final.has(node.type)) continue;
    const same = byId.get(node.id);
    const why = !same ? 'missing' : same.type !== node.type ? 'other-type' : same.event !== node.event ? 'other-event' : null;
    if (why === null) continue;
    rows.push({ node, why, options: target.filter((t) => t.type === node.type) });
  }
  return rows;
}
