// Command-line options of `npm run bench` (contract section 9) and their defaults.
import { parseArgs } from 'node:util';

export const SCENARIOS = ['marketplace', 'steps', 'paused', 'timers', 'limit', 'two-nodes', 'stats', 'migrate'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** The `steps` scenario's flows: six logic.branch steps, or the real commerce steps; one event each. */
export const STEPS_VARIANTS = ['logic', 'commerce'] as const;
export type StepsVariant = (typeof STEPS_VARIANTS)[number];

export interface BenchOptions {
  scenarios: ScenarioName[];
  /** Marketplace orders driven in a closed loop (also the two-nodes load). */
  orders: number;
  /** Requests in flight at once in the closed loop. */
  concurrency: number;
  /** Orders and orders in flight of the `steps` scenario (--steps-orders, else --orders, else 2000; likewise 50). */
  stepsOrders: number;
  stepsConcurrency: number;
  /** The `steps` variants to run, in this order. */
  stepsVariants: StepsVariant[];
  /** Runs of marketplace and steps, each on a fresh database; the table shows the medians. */
  repeat: number;
  /** Requests per second in the open-loop latency phase (a third POST /orders, two thirds seller events). */
  rate: number;
  /** Seconds of the open-loop latency phase. */
  rateSeconds: number;
  /** Paused orders created in the paused scenario. */
  paused: number;
  /** Orders of one flow version seeded for the stats scenario (contract 17: the answer within 500 ms at 100,000). */
  statsOrders: number;
  /** Orders waiting on version 1 that the migrate scenario moves to version 2 (issue 34: 10,000), and the batch's rate. */
  migrateOrders: number;
  migrateRate: number;
  /** Timers due per second, and for how many seconds, in the timers scenario. */
  timerRate: number;
  timerSeconds: number;
  /** Timers due in the same instant for the drain measurement. */
  drain: number;
  /** pgbench / commit-loop duration, seconds. */
  limitSeconds: number;
  /** SKUs per seller class in the bench catalogue (1 = the demo SKUs only: every order locks the same stock rows). */
  skus: number;
  /** Webhook subscriptions attached during the marketplace scenario (deliveries go to a local receiver). */
  webhooks: number;
  databaseUrl: string | null;
  redisUrl: string | null;
  /** Where results go; null = do not write a file. */
  resultsDir: string | null;
  keep: boolean;
  /** Embedded PostgreSQL only: the service connects over TCP loopback instead of the Unix socket (for comparison). */
  pgTcp: boolean;
  quiet: boolean;
  /** Extra node flags for the service processes (e.g. --cpu-prof). */
  serviceNodeArgs: string[];
}

const HELP = `npm run bench -- [options]

  --scenario LIST     comma-separated: ${SCENARIOS.join(',')} (default: all)
  --orders N          marketplace orders in the closed loop (default 1000)
  --concurrency C     requests in flight in the closed loop (default 16)
  --steps-orders N    orders per steps variant (default: --orders when given, else 2000)
  --steps-concurrency C  orders in flight in steps (default: --concurrency when given, else 50)
  --steps-variant V   steps variants: logic, commerce or logic,commerce (default both)
  --repeat K          runs of marketplace and steps, each on a fresh database; reports medians (default 1)
  --rate R            requests/s in the open-loop latency phase: R/3 orders/s, each POST + 2 events (default 100)
  --rate-seconds S    length of the open-loop phase (default 20)
  --paused N          orders left waiting in the paused scenario (default 100000)
  --stats-orders N    orders seeded for the stats scenario (default 100000)
  --migrate-orders N  orders moved to a new flow version in the migrate scenario (default 10000)
  --migrate-rate R    the migrate batch's ratePerSecond, 1 to 1000 (default 50, contract 16's)
  --timer-rate R      timers due per second (default 200)
  --timer-seconds S   seconds of steady timers (default 30)
  --drain N           timers due in the same instant (default 10000)
  --limit-seconds S   pgbench duration (default 30)
  --skus K            SKUs per seller class ordered from (default 64; 1 = the demo SKUs, one hot stock row each)
  --webhooks N        webhook subscriptions attached in the marketplace scenario (default 0)
  --no-results        do not write bench/results/<date>.json
  --keep              keep the bench databases
  --pg-tcp            embedded PostgreSQL only: the service connects over TCP loopback, not the Unix socket
  --quiet             no progress output
  --service-node-args="ARGS"  extra node flags for the service (e.g. --service-node-args="--cpu-prof --cpu-prof-dir=/tmp/prof")

PostgreSQL: DATABASE_URL or TEST_DATABASE_URL (a server; the bench creates and drops its own
databases there), else an embedded server in a temporary directory. Redis: REDIS_URL or
TEST_REDIS_URL; without it the Redis rows and the two-nodes scenario are skipped.`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${raw}`);
  return n;
}

/** Parses argv; returns null when --help was asked for (the help text is printed). */
export function parseBenchOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string' },
      orders: { type: 'string' },
      concurrency: { type: 'string' },
      'steps-orders': { type: 'string' },
      'steps-concurrency': { type: 'string' },
      'steps-variant': { type: 'string' },
      repeat: { type: 'string' },
      rate: { type: 'string' },
      'rate-seconds': { type: 'string' },
      paused: { type: 'string' },
      'stats-orders': { type: 'string' },
      'migrate-orders': { type: 'string' },
      'migrate-rate': { type: 'string' },
      'timer-rate': { type: 'string' },
      'timer-seconds': { type: 'string' },
      drain: { type: 'string' },
      'limit-seconds': { type: 'string' },
      webhooks: { type: 'string' },
      skus: { type: 'string' },
      'no-results': { type: 'boolean' },
      keep: { type: 'boolean' },
      'pg-tcp': { type: 'boolean' },
      quiet: { type: 'boolean' },
      'service-node-args': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return null;
  }
  const scenarios = (values.scenario ?? SCENARIOS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of scenarios) if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario ${s} (known: ${SCENARIOS.join(', ')})`);
  const variants = [...new Set((values['steps-variant'] ?? STEPS_VARIANTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean))];
  for (const v of variants) if (!(STEPS_VARIANTS as readonly string[]).includes(v)) throw new Error(`unknown steps variant ${v} (known: ${STEPS_VARIANTS.join(', ')})`);
  return {
    scenarios: scenarios as ScenarioName[],
    orders: Math.floor(positive('orders', values.orders, 1000)),
    concurrency: Math.max(1, Math.floor(positive('concurrency', values.concurrency, 16))),
    // --orders and --concurrency apply to steps too when given; its own defaults are the shape.
    stepsOrders: Math.floor(positive('steps-orders', values['steps-orders'] ?? values.orders, 2000)),
    stepsConcurrency: Math.max(1, Math.floor(positive('steps-concurrency', values['steps-concurrency'] ?? values.concurrency, 50))),
    stepsVariants: variants as StepsVariant[],
    repeat: Math.max(1, Math.floor(positive('repeat', values.repeat, 1))),
    rate: positive('rate', values.rate, 100),
    rateSeconds: positive('rate-seconds', values['rate-seconds'], 20),
    paused: Math.floor(positive('paused', values.paused, 100_000)),
    statsOrders: Math.floor(positive('stats-orders', values['stats-orders'], 100_000)),
    migrateOrders: Math.max(1, Math.floor(positive('migrate-orders', values['migrate-orders'], 10_000))),
    // Contract 16's bounds of ratePerSecond.
    migrateRate: Math.min(1000, Math.max(1, Math.floor(positive('migrate-rate', values['migrate-rate'], 50)))),
    timerRate: positive('timer-rate', values['timer-rate'], 200),
    timerSeconds: positive('timer-seconds', values['timer-seconds'], 30),
    drain: Math.floor(positive('drain', values.drain, 10_000)),
    limitSeconds: Math.max(1, Math.floor(positive('limit-seconds', values['limit-seconds'], 30))),
    webhooks: Math.floor(positive('webhooks', values.webhooks, 0)),
    skus: Math.max(1, Math.floor(positive('skus', values.skus, 64))),
    databaseUrl: env.DATABASE_URL || env.TEST_DATABASE_URL || null,
    redisUrl: env.REDIS_URL || env.TEST_REDIS_URL || null,
    resultsDir: values['no-results'] ? null : 'bench/results',
    keep: Boolean(values.keep),
    pgTcp: Boolean(values['pg-tcp']),
    quiet: Boolean(values.quiet),
    serviceNodeArgs: (values['service-node-args'] ?? '').split(/\s+/).filter(Boolean),
  };
}
