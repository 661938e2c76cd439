// Renders a laid-out flow as SVG: shapes by kind, labels, branch names, stable data-* attributes, optional live status.
import type { DiagramShape } from './flow-diagram-model.js';
import type { FlowLayout, LaidOutEdge, LaidOutNode, Point } from './flow-layout.js';
import { durationText } from '../../lib/duration-text.js';

/** The live status of an order's run, as the order live state reports it (contract section 13's `data-*-status`). */
export interface DiagramStatus {
  nodes: Record<string, string>;
  /** Keyed by `edgeKey(from, to, branch)`. */
  edges: Record<string, string>;
}

export const edgeKey = (from: string, to: string, branch: string): string => `${from}>${to}>${branch}`;

/**
 * A heat view's marks (contract 17): per node its p95 (ms), the orders at it now and its colour class (0 fastest to
 * 4 slowest, null with no finished run); per edge (by `edgeKey`) the times it was taken. Values are drawn as text too.
 */
export interface DiagramHeat {
  nodes: Record<string, { p95: number | null; activeNow: number; level: number | null }>;
  edges: Record<string, number>;
}

/** The heat classes' fills: ColorBrewer's five-class Blues, one hue light to dark (readable without telling hues apart). */
export const HEAT_FILLS = ['#eff3ff', '#bdd7e7', '#6baed6', '#3182bd', '#08519c'] as const;
/** The fill of a node with no finished run in the range. */
export const HEAT_NONE_FILL = '#f4f4f4';

/** Escapes text for SVG content and quoted attributes (no presentation depends on it). */
export function esc(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Plain-language names of the shapes, for the title and the accessible name. */
const SHAPE_NAME: Record<DiagramShape, string> = {
  trigger: 'start',
  step: 'step',
  wait: 'wait',
  approval: 'approval',
  branch: 'branch',
  loop: 'loop',
  end: 'end',
  continue: 'continue',
  unknown: 'unknown type',
};

/**
 * The outline of a node by its shape. Colours are presentation attributes (the standalone SVG needs them; the
 * dashboard's stylesheet overrides them by status), never `style` (the CSP allows no inline style).
 */
function shapeOf(n: LaidOutNode, fill = '#ffffff'): string {
  const { x, y, width: w, height: h } = n;
  const l = x - w / 2;
  const t = y - h / 2;
  // One stroke width per shape: an attribute written twice makes the SVG ill-formed XML (browsers refuse it as an image).
  const box = (rx: number, extra = '', strokeWidth = 1.5) => `<rect class="shape" x="${l}" y="${t}" width="${w}" height="${h}" rx="${rx}" fill="${fill}" stroke="#44505c" stroke-width="${strokeWidth}"${extra}/>`;
  switch (n.shape) {
    case 'trigger':
      return box(h / 2);
    case 'end':
      return box(h / 2, '', 3);
    case 'continue':
      return box(h / 2, ' stroke-dasharray="6 3"');
    case 'wait': {
      const d = 12;
      return `<polygon class="shape" points="${l + d},${t} ${l + w - d},${t} ${l + w},${y} ${l + w - d},${t + h} ${l + d},${t + h} ${l},${y}" fill="${fill}" stroke="#44505c" stroke-width="1.5"/>`;
    }
    case 'approval':
      return `${box(4)}<rect class="shape-inner" x="${l + 3}" y="${t + 3}" width="${w - 6}" height="${h - 6}" rx="2" fill="none" stroke="#44505c" stroke-width="1"/>`;
    case 'branch':
      return `<polygon class="shape" points="${x},${t} ${l + w},${y} ${x},${t + h} ${l},${y}" fill="${fill}" stroke="#44505c" stroke-width="1.5"/>`;
    case 'loop':
      return `<ellipse class="shape" cx="${x}" cy="${y}" rx="${w / 2}" ry="${h / 2}" fill="${fill}" stroke="#44505c" stroke-width="1.5"/>`;
    case 'unknown':
      return box(4, ' stroke-dasharray="2 2"');
    case 'step':
      return box(4);
  }
}

function nodeSvg(n: LaidOutNode, status: string | undefined): string {
  const statusAttr = status === undefined ? '' : ` data-node-status="${esc(status)}"`;
  const name = `${n.label} (${SHAPE_NAME[n.shape]}, ${n.type})`;
  const labelY = status === undefined ? n.y + 4 : n.y - 2;
  const statusText = status === undefined ? '' : `<text class="node-status" x="${n.x}" y="${n.y + 13}" text-anchor="middle" font-size="10" fill="#44505c">${esc(status)}</text>`;
  return (
    `<g class="node node-${n.shape}" data-node-id="${esc(n.id)}" data-node-kind="${n.shape}" data-node-type="${esc(n.type)}"${statusAttr} tabindex="0" role="img" aria-label="${esc(name)}${status === undefined ? '' : `: ${esc(status)}`}">` +
    `<title>${esc(name)}</title>${shapeOf(n)}` +
    `<text class="node-label" x="${n.x}" y="${labelY}" text-anchor="middle" font-size="12" fill="#1b1b1b">${esc(n.shortLabel)}</text>${statusText}</g>`
  );
}

/** A node of the heat view: coloured by its p95 class, with its p95 and the orders at it now as text. */
function heatNodeSvg(n: LaidOutNode, heat: DiagramHeat['nodes'][string] | undefined): string {
  const h = heat ?? { p95: null, activeNow: 0, level: null };
  const level = h.level === null ? null : Math.max(0, Math.min(HEAT_FILLS.length - 1, h.level));
  const fill = level === null ? HEAT_NONE_FILL : HEAT_FILLS[level];
  const ink = level !== null && level >= 3 ? '#ffffff' : '#1b1b1b';
  const p95 = h.p95 === null ? 'no finished runs' : `p95 ${durationText(h.p95)}`;
  const now = `${h.activeNow} now`;
  const name = `${n.label} (${SHAPE_NAME[n.shape]}, ${n.type})`;
  return (
    `<g class="node node-${n.shape} heat-${level ?? 'none'}" data-node-id="${esc(n.id)}" data-node-kind="${n.shape}" data-node-type="${esc(n.type)}" ` +
    `data-p95-ms="${h.p95 ?? ''}" data-active-now="${h.activeNow}" data-heat-level="${level ?? 'none'}" tabindex="0" role="img" aria-label="${esc(`${name}: ${p95}, ${now}`)}">` +
    `<title>${esc(`${name}: ${p95}, ${now}`)}</title>${shapeOf(n, fill)}` +
    `<text class="node-label" x="${n.x}" y="${n.y - 8}" text-anchor="middle" font-size="12" fill="${ink}">${esc(n.shortLabel)}</text>` +
    `<text class="node-heat" x="${n.x}" y="${n.y + 6}" text-anchor="middle" font-size="10" fill="${ink}">${esc(p95)}</text>` +
    `<text class="node-active" x="${n.x}" y="${n.y + 18}" text-anchor="middle" font-size="10" fill="${ink}">${esc(now)}</text></g>`
  );
}

/** The middle of a route (where an edge without a branch label shows its count). */
function middleOf(points: Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  if (points.length % 2 === 1) return points[(points.length - 1) / 2];
  const a = points[points.length / 2 - 1];
  const b = points[points.length / 2];
  return { x: Math.round(((a.x + b.x) / 2) * 10) / 10, y: Math.round(((a.y + b.y) / 2) * 10) / 10 };
}

/** An edge of the heat view: as wide as it is taken (relative to the most taken), with its count as text. */
function heatEdgeSvg(e: LaidOutEdge, marker: string, count: number, most: number): string {
  const width = Math.round((1.5 + (most > 0 ? (4 * count) / most : 0)) * 10) / 10;
  // Beside the line (not on it), so the count does not hide the arrow.
  const at = e.labelAt ?? (({ x, y }) => ({ x: x + 8, y }))(middleOf(e.points));
  const text = e.labelAt ? `${e.branch} · ${count}` : String(count);
  const anchor = e.labelAt ? 'middle' : 'start';
  return (
    `<g class="edge" data-edge-from="${esc(e.from)}" data-edge-to="${esc(e.to)}" data-edge-branch="${esc(e.branch)}" data-edge-count="${count}">` +
    `<title>${esc(`${e.from} → ${e.to}${e.branch ? ` (${e.branch})` : ''}: taken ${count} time${count === 1 ? '' : 's'}`)}</title>` +
    `<path d="${pathOf(e.points)}" fill="none" stroke="${count > 0 ? '#33404c' : '#b0b7bf'}" stroke-width="${width}" marker-end="url(#${marker})"/>` +
    `<text class="edge-count" x="${at.x}" y="${at.y + 4}" text-anchor="${anchor}" font-size="11" fill="#1b1b1b" stroke="#ffffff" stroke-width="3" paint-order="stroke">${esc(text)}</text></g>`
  );
}

function pathOf(points: Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
}

function edgeSvg(e: LaidOutEdge, marker: string, status: string | undefined): string {
  const statusAttr = status === undefined ? '' : ` data-edge-status="${esc(status)}"`;
  const label = e.labelAt
    ? `<text class="edge-label" x="${e.labelAt.x}" y="${e.labelAt.y + 4}" text-anchor="middle" font-size="11" fill="#33404c">${esc(e.branch)}</text>`
    : '';
  return (
    `<g class="edge" data-edge-from="${esc(e.from)}" data-edge-to="${esc(e.to)}" data-edge-branch="${esc(e.branch)}"${statusAttr}>` +
    `<title>${esc(`${e.from} → ${e.to}${e.branch ? ` (${e.branch})` : ''}`)}</title>` +
    `<path d="${pathOf(e.points)}" fill="none" stroke="#6b7885" stroke-width="1.5" marker-end="url(#${marker})"/>${label}</g>`
  );
}

/**
 * The SVG of a layout. `key` names the drawing (its arrow marker id), so several drawings can share a page;
 * without `status` nothing live is drawn and the text is the same for the same layout and key. With `heat` it is
 * the heat view (contract 17): nodes coloured by p95 with their values as text, edges with their counts.
 */
export function renderFlowSvg(layout: FlowLayout, key: string, title: string, status?: DiagramStatus, heat?: DiagramHeat): string {
  const marker = `arrow-${key.replace(/[^A-Za-z0-9_-]/g, '-')}${heat ? '-heat' : ''}`;
  const w = Math.max(layout.width, 1);
  const h = Math.max(layout.height, 1);
  const most = heat ? Math.max(0, ...Object.values(heat.edges)) : 0;
  const edges = layout.edges.map((e) => {
    const k = edgeKey(e.from, e.to, e.branch);
    return heat ? heatEdgeSvg(e, marker, heat.edges[k] ?? 0, most) : edgeSvg(e, marker, status ? (status.edges[k] ?? 'pending') : undefined);
  });
  const nodes = layout.nodes.map((n) => (heat ? heatNodeSvg(n, heat.nodes[n.id]) : nodeSvg(n, status ? (status.nodes[n.id] ?? 'pending') : undefined)));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="flow-diagram${heat ? ' flow-heat' : ''}" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="group" aria-label="${esc(title)}" data-flow-diagram="${esc(key)}"${heat ? ' data-view="heat"' : ''}>` +
    `<title>${esc(title)}</title>` +
    // The heat view's edges are as wide as they are taken: its arrowheads keep one size (user units), not the line's.
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" ${heat ? 'markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10"' : 'markerWidth="7" markerHeight="7"'} orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#6b7885"/></marker></defs>` +
    `<g class="edges">${edges.join('')}</g>` +
    `<g class="nodes">${nodes.join('')}</g>` +
    `</svg>`
  );
}
