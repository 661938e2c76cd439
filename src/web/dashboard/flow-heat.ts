// The heat view of a flow (/flows/<id>?view=heat, contract 17): colour classes by p95 with a legend, the range form, the values as a table.
import type { OperationOutput } from '../../application/operation-types.js';
import type { DiagramHeat } from '../../engine/flows/flow-diagram-svg.js';
import { edgeKey, HEAT_FILLS } from '../../engine/flows/flow-diagram-svg.js';
import { durationText } from '../../lib/duration-text.js';
import { formatTime, html, type Html } from '../../transport/html.js';

/** The stats answer as `getFlowStats` gives it. */
export type FlowStatsView = OperationOutput<'getFlowStats'>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The ranges offered, as the form names them. */
export const HEAT_RANGES = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '90d': 90 * DAY } as const;
export type HeatRange = keyof typeof HEAT_RANGES;

/** The range asked for: a preset (default 7 days), or days `from`/`to` (YYYY-MM-DD, UTC, both included). */
export interface HeatRangeChoice {
  preset: HeatRange | 'custom';
  from: number;
  to: number;
  fromDay: string;
  toDay: string;
}

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const parseDay = (v: string | undefined): number | null => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && Number.isFinite(Date.parse(`${v}T00:00:00Z`)) ? Date.parse(`${v}T00:00:00Z`) : null);

/** The range of a heat view's query; unknown values fall back to the last 7 days. */
export function heatRange(query: { range?: string; from?: string; to?: string }, now: number): HeatRangeChoice {
  const from = parseDay(query.from);
  const to = parseDay(query.to);
  if (query.range === 'custom' && from !== null && to !== null) return { preset: 'custom', from, to: to + DAY - 1, fromDay: dayOf(from), toDay: dayOf(to) };
  const preset: HeatRange = query.range && query.range in HEAT_RANGES ? (query.range as HeatRange) : '7d';
  const start = now - HEAT_RANGES[preset];
  return { preset, from: start, to: now, fromDay: dayOf(start), toDay: dayOf(now) };
}

export interface HeatLegendEntry {
  level: number;
  /** p95 bounds of the class, ms (the class holds p95s from `from` up to `to`). */
  from: number;
  to: number;
}

/**
 * Colour classes by p95 on a log scale between the fastest and the slowest node of the answer (five classes; one
 * when all are the same). A log scale: steps take milliseconds and waits days, and both should tell apart.
 */
export function heatOf(stats: FlowStatsView): { heat: DiagramHeat; legend: HeatLegendEntry[] } {
  const p95s = Object.values(stats.nodes)
    .map((n) => n.durationMs.p95)
    .filter((v): v is number => v !== null);
  const lo = Math.log1p(Math.min(...p95s, Infinity));
  const hi = Math.log1p(Math.max(...p95s, 0));
  const classes = HEAT_FILLS.length;
  const span = hi - lo;
  const levelOf = (p95: number | null): number | null => {
    if (p95 === null) return null;
    if (!(span > 1e-9)) return Math.floor(classes / 2);
    return Math.min(classes - 1, Math.floor(((Math.log1p(p95) - lo) / span) * classes));
  };
  const bound = (i: number) => Math.round(Math.expm1(lo + (span * i) / classes));
  const legend: HeatLegendEntry[] =
    p95s.length === 0
      ? []
      : span > 1e-9
        ? Array.from({ length: classes }, (_, i) => ({ level: i, from: bound(i), to: bound(i + 1) }))
        : [{ level: Math.floor(classes / 2), from: Math.round(Math.expm1(lo)), to: Math.round(Math.expm1(lo)) }];
  const heat: DiagramHeat = {
    nodes: Object.fromEntries(Object.entries(stats.nodes).map(([id, n]) => [id, { p95: n.durationMs.p95, activeNow: n.activeNow, level: levelOf(n.durationMs.p95) }])),
    edges: Object.fromEntries(stats.edges.map((e) => [edgeKey(e.from, e.to, e.branch), e.count])),
  };
  return { heat, legend };
}

const msText = (ms: number | null): string => (ms === null ? '—' : durationText(ms));

/** The range form, the legend and the values as a table (the drawing goes between legend and table). */
export function heatParts(o: {
  flowId: string;
  version: number;
  range: HeatRangeChoice;
  stats: FlowStatsView;
  legend: HeatLegendEntry[];
  labels: Map<string, string>;
}): { form: Html; legend: Html; table: Html } {
  const s = o.stats;
  const total = Object.values(s.orders).reduce((sum, n) => sum + n, 0);
  const option = (value: string, text: string) => html`<option value="${value}" ${o.range.preset === value ? 'selected' : ''}>${text}</option>`;
  const form = html`<form method="get" action="/flows/${encodeURIComponent(o.flowId)}" class="filters" aria-label="Range of order creation" data-heat-range>
<input type="hidden" name="view" value="heat"><input type="hidden" name="version" value="${o.version}">
<div><label for="range">Orders created</label><select id="range" name="range">${option('24h', 'in the last 24 hours')}${option('7d', 'in the last 7 days')}${option('30d', 'in the last 30 days')}${option('90d', 'in the last 90 days')}${option('custom', 'between the days below')}</select></div>
<div><label for="from">From (UTC day)</label><input id="from" name="from" type="date" value="${o.range.fromDay}"></div>
<div><label for="to">To (UTC day)</label><input id="to" name="to" type="date" value="${o.range.toDay}"></div>
<div><button type="submit">Show</button></div></form>
<p data-heat-summary data-heat-from="${s.from}" data-heat-to="${s.to}">${total} order${total === 1 ? '' : 's'} created from ${formatTime(s.from)} to the hour of ${formatTime(s.to)}: ${Object.entries(s.orders)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status.replace('_', ' ')}`)
    .join(', ') || 'none'}. “Now” counts the orders at a step at this moment, whatever the range.</p>`;
  const legend = html`<div class="heat-legend" data-heat-legend><span class="hint">Colour by p95 (time within which 95 % of runs finished), lightest fastest:</span>
<ul>${o.legend.map((l) => html`<li data-heat-level="${l.level}"><span class="heat-swatch heat-${l.level}" aria-hidden="true"></span>${l.from === l.to ? `p95 ${durationText(l.from)}` : `p95 ${durationText(l.from)} to ${durationText(l.to)}`}</li>`)}
<li data-heat-level="none"><span class="heat-swatch heat-none" aria-hidden="true"></span>no finished runs</li></ul>
<p class="hint">Each step shows its p95 and how many orders are at it now; each arrow how often it was taken (thicker: more often).</p></div>`;
  const rows = Object.entries(s.nodes).sort(([, a], [, b]) => (b.durationMs.p95 ?? -1) - (a.durationMs.p95 ?? -1));
  const table = html`<div class="table-wrap"><table class="stack" data-heat-table>
<caption class="hint">Slowest first (p95)</caption>
<thead><tr><th scope="col">Step</th><th scope="col">p50</th><th scope="col">p95</th><th scope="col">Longest</th><th scope="col">Runs</th><th scope="col">Failed</th><th scope="col">Now</th></tr></thead>
<tbody>${rows.map(
    ([id, n]) => html`<tr data-heat-node="${id}"><th scope="row" data-label="Step">${o.labels.get(id) ?? id} <code class="hint">${id}</code></th><td data-label="p50">${msText(n.durationMs.p50)}</td><td data-label="p95">${msText(n.durationMs.p95)}</td><td data-label="Longest">${msText(n.durationMs.max)}</td><td data-label="Runs">${n.runs}</td><td data-label="Failed">${n.failed}</td><td data-label="Now">${n.activeNow}</td></tr>`,
  )}</tbody></table></div>`;
  return { form, legend, table };
}
