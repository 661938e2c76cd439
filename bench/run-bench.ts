// Runs the selected scenarios in order on one stack (also what the CI smoke test calls).
import type { BenchOptions, ScenarioName } from './bench-options.js';
import { failed, type ScenarioResult } from './bench-result.js';
import { openStack } from './bench-stack.js';
import { scenarioContext, type ScenarioContext } from './scenario-context.js';
import { marketplaceScenario, type MarketplaceNumbers } from './scenarios/marketplace.js';
import { pausedScenario } from './scenarios/paused.js';
import { timersScenario } from './scenarios/timers.js';
import { limitScenario } from './scenarios/limit.js';
import { twoNodesScenario } from './scenarios/two-nodes.js';
import { stepsScenario } from './scenarios/steps.js';
import { statsScenario } from './scenarios/stats.js';
import { migrateScenario } from './scenarios/migrate.js';

export interface BenchRun {
  results: ScenarioResult[];
  /** `server` or `embedded` PostgreSQL, and whether Redis was used. */
  stack: string;
  /** The marketplace numbers (the medians with --repeat), also what `limit` relates to. */
  marketplace: MarketplaceNumbers | null;
}

export async function runBench(options: BenchOptions, password: string): Promise<BenchRun> {
  const stack = await openStack({ databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, keep: options.keep, tcp: options.pgTcp, log: (l) => !options.quiet && process.stderr.write(`${l}\n`) });
  const ctx: ScenarioContext = scenarioContext(options, stack, password);
  const results: ScenarioResult[] = [];
  let marketplace: MarketplaceNumbers | null = null;
  // `steps` reports one result per variant.
  const run: Record<ScenarioName, () => Promise<ScenarioResult | ScenarioResult[]>> = {
    marketplace: async () => {
      const r = await marketplaceScenario(ctx);
      marketplace = r.numbers;
      const { numbers: _numbers, ...rest } = r;
      return rest;
    },
    steps: () => stepsScenario(ctx),
    paused: () => pausedScenario(ctx),
    timers: () => timersScenario(ctx),
    limit: () => limitScenario(ctx, marketplace),
    'two-nodes': () => twoNodesScenario(ctx),
    stats: () => statsScenario(ctx),
    migrate: () => migrateScenario(ctx),
  };
  try {
    for (const name of options.scenarios) {
      ctx.log(`--- ${name}`);
      try {
        results.push(...[await run[name]()].flat());
      } catch (err) {
        // One scenario breaking (a service that died, an unexpected answer) must not throw away the others'
        // numbers: it is reported as a correctness problem, which fails the run, and the next scenario runs.
        const message = err instanceof Error ? err.message : String(err);
        ctx.log(`${name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
        results.push(failed(name, message));
      }
    }
  } finally {
    await stack.close();
  }
  return { results, stack: `${stack.kind} PostgreSQL${stack.redisUrl ? ' + Redis' : ''}`, marketplace };
}
