// Renders a laid-out flow as SVG: shapes by kind, labels, branch names, stable data-* attributes, optional live status.
import type { DiagramShape } from './flow-diagram-model.js';
import type { FlowLayout, LaidOutEdge, LaidOutNode, Point } from './flow-layout.js';

/** The live status of an order's run, as the order live state reports it (contract section 13's `data-*-status`). */
export interface DiagramStatus {
  nodes: Record<string, string>;
  /** Keyed by `edgeKey(from, to, branch)`. */
  edges: Record<string, string>;
}

export const edgeKey = (from: string, to: string, branch: string): string => `${from}>${to}>${branch}`;

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
function shapeOf(n: LaidOutNode): string {
  const { x, y, width: w, height: h } = n;
  const l = x - w / 2;
  const t = y - h / 2;
  // One stroke width per shape: an attribute written twice makes the SVG ill-formed XML (browsers refuse it as an image).
  const box = (rx: number, extra = '', strokeWidth = 1.5) => `<rect class="shape" x="${l}" y="${t}" width="${w}" height="${h}" rx="${rx}" fill="#ffffff" stroke="#44505c" stroke-width="${strokeWidth}"${extra}/>`;
  switch (n.shape) {
    case 'trigger':
      return box(h / 2);
    case 'end':
      return box(h / 2, '', 3);
    case 'continue':
      return box(h / 2, ' stroke-dasharray="6 3"');
    case 'wait': {
      const d = 12;
      return `<polygon class="shape" points="${l + d},${t} ${l + w - d},${t} ${l + w},${y} ${l + w - d},${t + h} ${l + d},${t + h} ${l},${y}" fill="#ffffff" stroke="#44505c" stroke-width="1.5"/>`;
    }
    case 'approval':
      return `${box(4)}<rect class="shape-inner" x="${l + 3}" y="${t + 3}" width="${w - 6}" height="${h - 6}" rx="2" fill="none" stroke="#44505c" stroke-width="1"/>`;
    case 'branch':
      return `<polygon class="shape" points="${x},${t} ${l + w},${y} ${x},${t + h} ${l},${y}" fill="#ffffff" stroke="#44505c" stroke-width="1.5"/>`;
    case 'loop':
      return `<ellipse class="shape" cx="${x}" cy="${y}" rx="${w / 2}" ry="${h / 2}" fill="#ffffff" stroke="#44505c" stroke-width="1.5"/>`;
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
 * without `status` nothing live is drawn and the text is the same for the same layout and key.
 */
export function renderFlowSvg(layout: FlowLayout, key: string, title: string, status?: DiagramStatus): string {
  const marker = `arrow-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const w = Math.max(layout.width, 1);
  const h = Math.max(layout.height, 1);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="flow-diagram" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="group" aria-label="${esc(title)}" data-flow-diagram="${esc(key)}">` +
    `<title>${esc(title)}</title>` +
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#6b7885"/></marker></defs>` +
    `<g class="edges">${layout.edges.map((e) => edgeSvg(e, marker, status ? (status.edges[edgeKey(e.from, e.to, e.branch)] ?? 'pending') : undefined)).join('')}</g>` +
    `<g class="nodes">${layout.nodes.map((n) => nodeSvg(n, status ? (status.nodes[n.id] ?? 'pending') : undefined)).join('')}</g>` +
    `</svg>`
  );
}
