// Lays a flow drawing out top to bottom with @dagrejs/dagre (MIT): node boxes, edge routes and branch-label spots.
import dagre from '@dagrejs/dagre';
import type { DiagramModel, DiagramNode, DiagramEdge } from './flow-diagram-model.js';

export interface Point {
  x: number;
  y: number;
}

export interface LaidOutNode extends DiagramNode {
  /** Centre and size. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The label as drawn (shortened to fit the box; the full one is the node's title). */
  shortLabel: string;
}

export interface LaidOutEdge extends DiagramEdge {
  points: Point[];
  /** Where the branch name is drawn (null when it is not). */
  labelAt: Point | null;
}

export interface FlowLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

/** Box sizes: a line of about 7 px per character at the drawing's 12 px font, within fixed bounds. */
export const NODE_HEIGHT = 50;
const MIN_WIDTH = 110;
const MAX_WIDTH = 200;
const CHAR_WIDTH = 7;
const MARGIN = 16;

function shorten(label: string, width: number): string {
  const fits = Math.floor((width - 20) / CHAR_WIDTH);
  return label.length <= fits ? label : `${label.slice(0, Math.max(1, fits - 1))}…`;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** The layout of a model. Deterministic for the same model (dagre has no randomness), so one version always draws the same. */
export function layoutFlow(model: DiagramModel): FlowLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true, directed: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 44, edgesep: 12, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  const sizes = new Map<string, number>();
  for (const n of model.nodes) {
    const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, n.label.length * CHAR_WIDTH + 28));
    sizes.set(n.id, width);
    g.setNode(n.id, { width: n.shape === 'branch' ? width + 20 : width, height: NODE_HEIGHT });
  }
  model.edges.forEach((e, i) => {
    const label = e.showBranch ? { width: e.branch.length * 6.5 + 8, height: 14, labelpos: 'c' } : {};
    g.setEdge(e.from, e.to, { ...label, minlen: 1 }, `e${i}`);
  });
  dagre.layout(g);
  const graph = g.graph();
  const nodes = model.nodes.map((n) => {
    const laid = g.node(n.id);
    return { ...n, x: round(laid.x), y: round(laid.y), width: laid.width, height: laid.height, shortLabel: shorten(n.label, sizes.get(n.id) ?? MIN_WIDTH) };
  });
  const edges = model.edges.map((e, i) => {
    const laid = g.edge({ v: e.from, w: e.to, name: `e${i}` }) as { points?: Point[]; x?: number; y?: number };
    const points = (laid.points ?? []).map((p) => ({ x: round(p.x), y: round(p.y) }));
    const labelAt = e.showBranch && typeof laid.x === 'number' && typeof laid.y === 'number' ? { x: round(laid.x), y: round(laid.y) } : null;
    return { ...e, points, labelAt };
  });
  return { width: Math.ceil(graph.width ?? 0), height: Math.ceil(graph.height ?? 0), nodes, edges };
}
