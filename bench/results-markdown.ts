// `node --import tsx bench/results-markdown.ts <results.json> [...]`: prints a results file's table as Markdown (for docs/performance.md).
import { readFileSync } from 'node:fs';
import type { ScenarioResult } from './bench-result.js';
import { formatTable } from './report-table.js';

for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, 'utf8')) as { command: string; startedAt: string; machine: unknown; loadAfter: number[]; results: ScenarioResult[] };
  process.stdout.write(`\`${r.command}\` (${r.startedAt}, load after ${r.loadAfter.join(' ')})\n\n${formatTable(r.results, true)}\n\n`);
}
