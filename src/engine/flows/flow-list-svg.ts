// The drawing of a flow that was not laid out (too large to lay out in its budget, or the layout threads busy): its nodes and edges as a plain list, still an SVG.
import type { DiagramModel } from './flow-diagram-model.js';
import { edgeKey, esc, type DiagramHeat, type DiagramStatus } from './flow-diagram-svg.js';
import { durationText } from '../../lib/duration-text.js';

/** Why the drawing is a list, as the first line says. */
export type ListReason = 'over-budget' | 'busy' | 'failed';

const REASON_TEXT: Record<ListReason, string> = {
  'over-budget': 'Too large to draw in time: its nodes and edges as a list.',
  busy: 'Not drawn now (the drawing service is busy; reload to try again): its nodes and edges as a list.',
  failed: 'Could not be drawn: its nodes and edges as a list.',
};

const LINE = 18;
const LEFT = 16;

/**
 * A list drawing: one text line per node, then one per edge, with the same data-* marks as the graph drawing
 * (`data-node-id`, `data-edge-from`... and the statuses when `status` is given), and `data-drawing="list"` on the
 * root. It is SVG so every place a drawing goes (pages, the editor's parser, `diagram.svg`) takes it; all text is escaped.
 */
export function renderFlowListSvg(model: DiagramModel, key: string, title: string, reason: ListReason, status?: DiagramStatus, heat?: DiagramHeat): string {
  const lines: string[] = [];
  let y = LEFT + 12;
  let longest = REASON_TEXT[reason].length;
  // A status is its own tspan of class node-status, so the order page's script updates it in place as in the graph drawing.
  const line = (attrs: string, text: string, cls: string, s?: string) => {
    longest = Math.max(longest, text.length + (s ? s.length + 2 : 0));
    const statusText = s === undefined ? '' : `: <tspan class="node-status">${esc(s)}</tspan>`;
    lines.push(`<text class="${cls}"${attrs} x="${LEFT}" y="${y}" font-size="12" fill="#1b1b1b">${esc(text)}${statusText}</text>`);
    y += LINE;
  };
  line('', REASON_TEXT[reason], 'list-reason');
  line('', `Nodes (${model.nodes.length})`, 'list-heading');
  for (const n of model.nodes) {
    const h = heat ? (heat.nodes[n.id] ?? { p95: null, activeNow: 0, level: null }) : undefined;
    const s = status ? (status.nodes[n.id] ?? 'pending') : h ? `${h.p95 === null ? 'no finished runs' : `p95 ${durationText(h.p95)}`}, ${h.activeNow} now` : undefined;
    const statusAttr = h ? ` data-p95-ms="${h.p95 ?? ''}" data-active-now="${h.activeNow}"` : s === undefined ? '' : ` data-node-status="${esc(s)}"`;
    line(` data-node-id="${esc(n.id)}" data-node-kind="${n.shape}" data-node-type="${esc(n.type)}"${statusAttr}`, `${n.id}: ${n.label} (${n.type})`, 'node', s);
  }
  line('', `Edges (${model.edges.length})`, 'list-heading');
  for (const e of model.edges) {
    const count = heat ? (heat.edges[edgeKey(e.from, e.to, e.branch)] ?? 0) : undefined;
    const s = status ? (status.edges[edgeKey(e.from, e.to, e.branch)] ?? 'pending') : count !== undefined ? `taken ${count}` : undefined;
    const statusAttr = count !== undefined ? ` data-edge-count="${count}"` : s === undefined ? '' : ` data-edge-status="${esc(s)}"`;
    line(` data-edge-from="${esc(e.from)}" data-edge-to="${esc(e.to)}" data-edge-branch="${esc(e.branch)}"${statusAttr}`, `${e.from} → ${e.to}${e.branch ? ` (${e.branch})` : ''}`, 'edge', s);
  }
  const w = Math.min(2400, LEFT * 2 + longest * 7);
  const h = y;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="flow-diagram flow-list" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="group" aria-label="${esc(title)}" data-flow-diagram="${esc(key)}" data-drawing="list">` +
    `<title>${esc(title)}</title>${lines.join('')}</svg>`
  );
}
