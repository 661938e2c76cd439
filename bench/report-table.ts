// Prints scenario results as one plain-text table: scenario, metric, value, target, met.
import type { ScenarioResult } from './bench-result.js';

function cell(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return String(v ?? '');
}

/** The table as lines of text (also used for docs/performance.md as a Markdown table). */
export function formatTable(results: ScenarioResult[], markdown = false): string {
  const header = ['scenario', 'metric', 'value', 'target', 'met'];
  const lines: string[][] = [];
  for (const r of results)
    for (const [i, x] of r.rows.entries())
      lines.push([i === 0 ? r.scenario : '', x.metric, `${cell(x.value)}${x.unit ? ` ${x.unit}` : ''}`, x.target ?? '', x.met === undefined ? '' : x.met ? 'yes' : 'NO']);
  if (markdown) {
    const esc = (s: string) => s.replace(/\|/g, '\\|');
    return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...lines.map((l) => `| ${l.map(esc).join(' | ')} |`)].join('\n');
  }
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const fmt = (l: string[]) => l.map((s, c) => s.padEnd(widths[c])).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}
