// Scenario `limit`: the physical reference on the same PostgreSQL: pgbench simple-update (-N, 8 clients, 30 s)
// when the binary exists, else an equivalent single-row commit loop in Node; commits/s and the engine's share of it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { row, type ResultRow, type ScenarioResult } from '../bench-result.js';
import type { BenchDatabase } from '../bench-stack.js';
import type { ScenarioContext } from '../scenario-context.js';
import type { MarketplaceNumbers } from './marketplace.js';
import { round } from './marketplace.js';

const run = promisify(execFile);
const CLIENTS = 8;

/** pgbench's environment for a postgres:// URL (it reads PGPASSWORD and friends). */
function pgEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  return {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username || 'postgres'),
    PGPASSWORD: decodeURIComponent(u.password),
    PGDATABASE: u.pathname.slice(1),
  };
}

async function hasPgbench(): Promise<boolean> {
  try {
    await run('pgbench', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** pgbench -i, then -N -c 8 -j 2 -T seconds; returns tps without connection time. */
async function pgbench(db: BenchDatabase, seconds: number): Promise<{ tps: number; output: string }> {
  const env = pgEnv(db.url);
  await run('pgbench', ['-i', '-q', '-s', '1'], { env });
  const { stdout } = await run('pgbench', ['-N', '-c', String(CLIENTS), '-j', '2', '-T', String(seconds)], { env, maxBuffer: 1 << 20 });
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout);
  if (!m) throw new Error(`pgbench printed no tps: ${stdout.slice(-500)}`);
  return { tps: Number(m[1]), output: stdout.trim().split('\n').slice(-6).join('\n') };
}

/** The fallback: 8 clients each committing single-row updates (autocommit) for `seconds`. */
async function commitLoop(db: BenchDatabase, seconds: number): Promise<{ tps: number; output: string }> {
  await db.pool.query('CREATE TABLE bench_limit (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0)');
  await db.pool.query('INSERT INTO bench_limit (id) SELECT generate_series(1, 100000)');
  const until = Date.now() + seconds * 1000;
  let commits = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        while (Date.now() < until) {
          await c.query('UPDATE bench_limit SET n = n + 1 WHERE id = $1', [1 + Math.floor(Math.random() * 100_000)]);
          commits++;
        }
      } finally {
        await c.end();
      }
    }),
  );
  return { tps: commits / seconds, output: `${commits} single-row commits by ${CLIENTS} clients in ${seconds} s` };
}

export async function limitScenario(ctx: ScenarioContext, marketplace: MarketplaceNumbers | null): Promise<ScenarioResult> {
  const seconds = ctx.options.limitSeconds;
  const db = await ctx.stack.createDatabase('limit');
  try {
    const tool = (await hasPgbench()) ? 'pgbench' : 'node';
    ctx.log(`limit: ${tool === 'pgbench' ? 'pgbench -N' : 'single-row commit loop'}, ${CLIENTS} clients, ${seconds} s`);
    const { tps, output } = tool === 'pgbench' ? await pgbench(db, seconds) : await commitLoop(db, seconds);
    const rows: ResultRow[] = [row(`commits/s (${tool === 'pgbench' ? 'pgbench -N' : 'Node commit loop'}, ${CLIENTS} clients, ${seconds} s)`, round(tps, 0), 'commits/s')];
    let ratio: number | null = null;
    let ceiling: number | null = null;
    if (marketplace) {
      ratio = (marketplace.ordersPerSecond * marketplace.writingTxPerOrder) / tps;
      ceiling = tps / marketplace.writingTxPerOrder;
      rows.push(
        row('orders/s the commit limit allows (limit / tx per order)', round(ceiling, 0), 'orders/s'),
        row('ratio orders/s x tx per order / limit', round(ratio, 3), undefined, '>= 0.5', ratio >= 0.5),
      );
    } else rows.push(row('ratio', 'n/a (run with the marketplace scenario)'));
    return {
      scenario: 'limit',
      setup: `${tool === 'pgbench' ? 'pgbench simple-update (-N)' : 'single-row UPDATE commit loop in Node'} on the bench's PostgreSQL (${ctx.stack.kind})`,
      rows,
      data: { tool, clients: CLIENTS, seconds, commitsPerSecond: tps, output, ratio, ordersPerSecondAtLimit: ceiling },
      problems: [],
    };
  } finally {
    await db.drop();
  }
}
