// `npm run bench`: runs the selected scenarios against the real service and stack, prints a table,
// writes bench/results/<date>.json, and exits 1 when a correctness check failed (never on a missed target).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseBenchOptions } from './bench-options.js';
import { runBench } from './run-bench.js';
import { formatTable } from './report-table.js';
import { writeResults, machineInfo } from './results-file.js';

async function main(): Promise<void> {
  let options;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(2);
  }
  if (!options) return;
  const startedAt = new Date();
  const machine = machineInfo();
  process.stderr.write(`bench: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, node ${machine.node}, load ${machine.loadAverage.join(' ')}\n`);
  const { results, stack } = await runBench(options, `bench-${randomBytes(12).toString('hex')}`);
  process.stdout.write(`\n${formatTable(results)}\n`);
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.scenario}: ${p}`));
  if (options.resultsDir) {
    const file = writeResults(options.resultsDir, {
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      startedAt,
      machine,
      loadAfter: os.loadavg().map((l) => Math.round(l * 100) / 100),
      options,
      stack,
      results,
    });
    process.stdout.write(`\nresults: ${file}\n`);
  }
  if (problems.length > 0) {
    process.stderr.write(`\ncorrectness problems:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
