// Lays a flow drawing out top to bottom with @dagrejs/dagre (MIT): the boxes sent to the layout thread, and the answer turned into node boxes, edge routes and branch-label spots.
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

/** What layout-worker.mjs lays out: plain data only (it crosses to the layout thread by structured clone). */
export interface LayoutRequest {
  options: Record<string, string | number>;
  nodes: { id: string; width: number; height: number }[];
  edges: { from: string; to: string; label: { width: number; height: number; labelpos: string } | null }[];
}

/** What layout-worker.mjs answers: the drawing's size, each node's centre (in request order), each edge's route. */
export interface LayoutResult {
  width: number;
  height: number;
  nodes: { x: number; y: number; width: number; height: number }[];
  edges: { points: Point[]; x: number | null; y: number | null }[];
}

/** Box sizes: a line of about 7 px per character at the drawing's 12 px font, within fixed bounds. */
export const NODE_HEIGHT = 50;
const MIN_WIDTH = 110;
const MAX_WIDTH = 200;
const CHAR_WIDTH = 7;
const MARGIN = 16;

const labelWidth = (n: DiagramNode): number => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, n.label.length * CHAR_WIDTH + 28));

function shorten(label: string, width: number): string {
  const fits = Math.floor((width - 20) / CHAR_WIDTH);
  return label.length <= fits ? label : `${label.slice(0, Math.max(1, fits - 1))}…`;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** The boxes and edges of a model as the layout thread takes them. Deterministic (dagre has no randomness), so one version always draws the same. */
export function layoutRequest(model: DiagramModel): LayoutRequest {
  return {
    options: { rankdir: 'TB', nodesep: 28, ranksep: 44, edgesep: 12, marginx: MARGIN, marginy: MARGIN },
    nodes: model.nodes.map((n) => ({ id: n.id, width: n.shape === 'branch' ? labelWidth(n) + 20 : labelWidth(n), height: NODE_HEIGHT })),
    edges: model.edges.map((e) => ({ from: e.from, to: e.to, label: e.showBranch ? { width: e.branch.length * 6.5 + 8, height: 14, labelpos: 'c' } : null })),
  };
}

/** The layout of a model from the layout thread's answer to `layoutRequest(model)`. */
export function placeLayout(model: DiagramModel, result: LayoutResult): FlowLayout {
  const nodes = model.nodes.map((n, i) => {
    const laid = result.nodes[i];
    return { ...n, x: round(laid.x), y: round(laid.y), width: laid.width, height: laid.height, shortLabel: shorten(n.label, labelWidth(n)) };
  });
  const edges = model.edges.map((e, i) => {
    const laid = result.edges[i];
    const points = laid.points.map((p) => ({ x: round(p.x), y: round(p.y) }));
    const labelAt = e.showBranch && typeof laid.x === 'number' && typeof laid.y === 'number' ? { x: round(laid.x), y: round(laid.y) } : null;
    return { ...e, points, labelAt };
  });
  return { width: Math.ceil(result.width), height: Math.ceil(result.height), nodes, edges };
}
