// Scenario `steps`: the issue's engine shape (a few durable steps, one wait, one external event) in two variants,
// six logic.branch steps or the real commerce steps: orders/s, CPU, SQL statements, writing transactions and
// PostgreSQL bytes per order, and an exactly-once check.
import os from 'node:os';
import type { StepsVariant } from '../bench-options.js';
import { failed, row, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { closedLoop } from '../load-pool.js';
import { BenchClient } from '../http-client.js';
import { LatencyRecorder, type LatencySummary } from '../latency-recorder.js';
import { readStock } from '../marketplace-checks.js';
import { startService } from '../service-process.js';
import { enableStatementStats, resetStatementStats, statementTotals, topStatements } from '../pg-statements.js';
import { backgroundXidRate, currentXid, writingSince } from '../xact-probe.js';
import { CpuMeter, findPostmaster, type CpuSample } from '../cpu-meter.js';
import { bytesGrowth, databaseBytes } from '../pg-bytes.js';
import { runRepeated, type RepeatableScenario, type RunMeasure } from '../repeat-runs.js';
import { checkStepsOrders } from '../steps-checks.js';
import { commerceLine, publishStepsFlow, stepsEventBody, stepsFlow, stepsOrderBody, type StepsFlow } from '../steps-flow.js';
import type { ScenarioContext } from '../scenario-context.js';
import { round } from './marketplace.js';

/** Orders run first to warm up (JIT, compiled-flow cache, pools); not measured. */
const WARMUP_ORDERS = 100;

/** The issue's targets: CPU per order, service + PostgreSQL + load generator, ms. */
export const STEPS_CPU_TARGET_MS: Record<StepsVariant, number> = { logic: 5, commerce: 12 };

export interface StepsNumbers {
  orders: number;
  concurrency: number;
  /** First POST to the last event's answer. */
  seconds: number;
  ordersPerSecond: number;
  /** CPU per order (ms): the service, PostgreSQL (embedded server only), the load generator; and their sum. */
  cpuPerOrder: CpuSample;
  cpuTotalMs: number | null;
  cpuBoundOrdersPerSecond: number | null;
  statementsPerOrder: number | null;
  /** PostgreSQL's own foreign-key checks per order, run at COMMIT (not sent by the service: StatementTotals). */
  foreignKeyChecksPerOrder: number | null;
  statementExecMsPerOrder: number | null;
  statementPlanMsPerOrder: number | null;
  writingTxPerOrder: number;
  backgroundXidPerSecond: number;
  /** Table + index bytes the database grew by over the loop, per order (and the two parts). */
  bytesPerOrder: number;
  tableBytesPerOrder: number;
  indexBytesPerOrder: number;
  create: LatencySummary;
  event: LatencySummary;
}

interface Drive {
  client: BenchClient;
  flow: StepsFlow;
  skus: number;
  create: LatencyRecorder;
  event: LatencyRecorder;
  /** Units ordered per SKU (commerce), for the stock check. */
  tally: Map<string, number>;
  /** Events answered `delivered: false` (the wait was not open when POST /orders answered). */
  undelivered: string[];
}

/** One order: POST /orders (answers once the slice up to the wait committed), then the one event. */
async function driveStepsOrder(n: number, prefix: string, d: Drive): Promise<void> {
  const line = d.flow.variant === 'commerce' ? commerceLine(n, d.skus) : null;
  const { orderId } = await d.create.time(() => d.client.expect<{ orderId: string }>(201, 'POST', '/api/v1/orders', stepsOrderBody(d.flow, `${prefix}${n}`, line)));
  if (line) d.tally.set(line.sku, (d.tally.get(line.sku) ?? 0) + line.qty);
  const res = await d.event.time(() =>
    d.client.expect<{ delivered: boolean; nodeId?: string }>(200, 'POST', `/api/v1/orders/${orderId}/events`, stepsEventBody(d.flow)),
  );
  if (!res.delivered || res.nodeId !== d.flow.waitNode) d.undelivered.push(orderId);
}

function stepsVariant(ctx: ScenarioContext, variant: StepsVariant): RepeatableScenario<StepsNumbers> {
  const { options } = ctx;
  const orders = options.stepsOrders;
  const concurrency = options.stepsConcurrency;
  const flow = stepsFlow(variant);
  const name = `steps (${variant})`;
  return {
    name,
    async measure(): Promise<RunMeasure<StepsNumbers>> {
      const db = await ctx.stack.createDatabase(`steps_${variant}`);
      const statements = await enableStatementStats(db.pool);
      const service = await startService({
        databaseUrl: db.serviceUrl,
        redisUrl: ctx.stack.redisUrl,
        workspaceFile: writeBenchWorkspace({ skus: variant === 'commerce' ? options.skus : 1 }),
        password: ctx.password,
        nodeArgs: options.serviceNodeArgs,
      });
      const client = await BenchClient.withApiToken(service.url, ctx.password, Math.max(concurrency, 64) * 2);
      try {
        await publishStepsFlow(client, flow);
        const drive = (tally: Map<string, number>): Drive => ({ client, flow, skus: options.skus, create: new LatencyRecorder(), event: new LatencyRecorder(), tally, undelivered: [] });
        const warm = drive(new Map());
        await closedLoop(Math.min(WARMUP_ORDERS, Math.max(1, orders)), concurrency, (i) => driveStepsOrder(i, 'warm-', warm));

        const stockBefore = variant === 'commerce' ? await readStock(db.pool) : null;
        const background = await backgroundXidRate(db.pool, 1_000);
        const bytes0 = await databaseBytes(db.pool);
        if (statements) await resetStatementStats(db.pool);
        const d = drive(new Map());
        const p = ctx.progress(`${name}: ${orders} orders, concurrency ${concurrency}`, orders);
        const meter = new CpuMeter([service.pid], ctx.stack.kind === 'embedded' ? await findPostmaster(db.pool) : null);
        const cpu0 = meter.sample();
        const x0 = await currentXid(db.pool);
        const t0 = performance.now();
        await closedLoop(orders, concurrency, (i) => driveStepsOrder(i, 'st-', d), (done) => p.update(done));
        const t1 = performance.now();
        const cpuPerOrder = CpuMeter.per(cpu0, meter.sample(), orders);
        const writing = await writingSince(db.pool, x0);
        p.done();
        const totals = statements ? await statementTotals(db.pool) : null;
        const profile = statements ? await topStatements(db.pool, 100) : null;
        const growth = bytesGrowth(bytes0, await databaseBytes(db.pool), orders);
        const check = await checkStepsOrders(db.pool, flow, 'st-', orders, stockBefore ? { before: stockBefore, ordered: d.tally } : undefined);
        const problems = [...check.problems];
        if (d.undelivered.length > 0 || warm.undelivered.length > 0)
          problems.push(`${d.undelivered.length + warm.undelivered.length} events not delivered to the open wait right after POST /orders answered, e.g. ${[...d.undelivered, ...warm.undelivered][0]}`);

        const seconds = (t1 - t0) / 1000;
        const cpuTotalMs = cpuPerOrder.postgresMs === null ? null : round(cpuPerOrder.serviceMs + cpuPerOrder.postgresMs + cpuPerOrder.benchMs, 2);
        const numbers: StepsNumbers = {
          orders,
          concurrency,
          seconds,
          ordersPerSecond: orders / seconds,
          cpuPerOrder,
          cpuTotalMs,
          cpuBoundOrdersPerSecond: cpuTotalMs ? (os.availableParallelism() * 1000) / cpuTotalMs : null,
          statementsPerOrder: totals ? totals.calls / orders : null,
          foreignKeyChecksPerOrder: totals ? totals.foreignKeyChecks / orders : null,
          statementExecMsPerOrder: totals ? totals.execMs / orders : null,
          statementPlanMsPerOrder: totals ? totals.planMs / orders : null,
          writingTxPerOrder: writing / orders,
          backgroundXidPerSecond: background,
          bytesPerOrder: growth.perUnit,
          tableBytesPerOrder: growth.tablePerUnit,
          indexBytesPerOrder: growth.indexPerUnit,
          create: d.create.summary(),
          event: d.event.summary(),
        };
        return {
          numbers,
          data: { variant, flow: flow.graph, ...numbers, skus: variant === 'commerce' ? options.skus : null, bytesByTable: growth.byTable, statements: profile, check },
          problems,
          completed: check.completedOnce,
          expected: orders,
        };
      } finally {
        client.close();
        await service.stop();
        await db.drop();
      }
    },
    report(n, summary) {
      const target = STEPS_CPU_TARGET_MS[variant];
      const steps = variant === 'logic' ? '6 logic.branch steps' : 'authorize, split, seller_accept, reserve, ship, capture, payout';
      return {
        setup:
          `${orders} orders of ${steps}, one wait.event and its event (POST /orders, then POST …/events), concurrency ${concurrency}` +
          `${variant === 'commerce' ? `, ${options.skus} SKUs` : ''}; ${ctx.stack.redisUrl ? 'Redis' : 'in-process'} scheduler; ${ctx.stack.kind} PostgreSQL`,
        rows: [
          row('orders completed/s', round(n.ordersPerSecond, 1), 'orders/s'),
          row('CPU per order: service / PostgreSQL / load generator', `${round(n.cpuPerOrder.serviceMs, 2)} / ${n.cpuPerOrder.postgresMs === null ? 'n/a' : round(n.cpuPerOrder.postgresMs, 2)} / ${round(n.cpuPerOrder.benchMs, 2)}`, 'ms'),
          row('CPU per order, all three', n.cpuTotalMs === null ? 'n/a (PostgreSQL not on this machine)' : round(n.cpuTotalMs, 2), n.cpuTotalMs === null ? undefined : 'ms', `<= ${target} ms`, n.cpuTotalMs === null ? undefined : n.cpuTotalMs <= target),
          row('  orders/s if CPU were the only limit', n.cpuBoundOrdersPerSecond === null ? 'n/a' : round(n.cpuBoundOrdersPerSecond, 1), 'orders/s'),
          row('SQL statements per order', n.statementsPerOrder === null ? 'n/a' : round(n.statementsPerOrder, 1)),
          row('  and foreign-key checks PostgreSQL ran at COMMIT', n.foreignKeyChecksPerOrder === null ? 'n/a' : round(n.foreignKeyChecksPerOrder, 1)),
          row(
            '  PostgreSQL execution / planning time per order',
            n.statementExecMsPerOrder === null ? 'n/a' : `${round(n.statementExecMsPerOrder, 2)} / ${round(n.statementPlanMsPerOrder!, 2)}`,
            'ms',
          ),
          row('writing transactions per order', round(n.writingTxPerOrder, 2), 'tx'),
          row('PostgreSQL bytes per order (table / index)', `${Math.round(n.bytesPerOrder)} (${Math.round(n.tableBytesPerOrder)} / ${Math.round(n.indexBytesPerOrder)})`, 'B'),
          row(`POST /orders p50/p99 (C=${concurrency})`, `${n.create.p50} / ${n.create.p99}`, 'ms'),
          row(`event delivery p50/p99 (C=${concurrency})`, `${n.event.p50} / ${n.event.p99}`, 'ms'),
          row(`completed exactly once${summary.runs > 1 ? ` (${summary.runs} runs)` : ''}`, `${summary.completed}/${summary.expected}`, undefined, 'all', summary.ok),
        ],
      };
    },
  };
}

/** Every selected variant, one after the other; a variant that throws is reported failed and the next still runs. */
export async function stepsScenario(ctx: ScenarioContext): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const variant of ctx.options.stepsVariants) {
    const scenario = stepsVariant(ctx, variant);
    ctx.log(`--- ${scenario.name}`);
    try {
      const { numbers: _numbers, ...result } = await runRepeated(ctx, scenario, ctx.options.repeat);
      results.push(result);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      ctx.log(`${scenario.name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
      results.push(failed(scenario.name, message));
    }
  }
  return results;
}
