// Scenario `migrate` (contract 15, issue 34): moving --migrate-orders orders (default 10,000) waiting on version 1 of a flow
// to version 2 runs at the batch's rate without slowing other traffic beyond what that rate implies. The waiting orders
// are started through the API (so each has its wait, its timeout timer and its timeline, as a real one); then the same
// open loop of other traffic (marketplace orders: POST + two seller events, at --rate requests/s for --rate-seconds) runs
// three times: before the move (baseline), while a `migrate` batch moves the orders at --migrate-rate per second, and
// after it finished (a second baseline: the machine may have drifted meanwhile). The batch's own cost is its CPU per moved
// order once the other traffic stopped; times its rate it is the share of a core the rate implies.
import { row, type ScenarioResult } from '../bench-result.js';
import { writeBenchWorkspace } from '../bench-workspace.js';
import { BenchClient } from '../http-client.js';
import { LatencyRecorder, type LatencySummary } from '../latency-recorder.js';
import { closedLoop, openLoop } from '../load-pool.js';
import { driveMarketplaceOrder } from '../drive-order.js';
import { startService } from '../service-process.js';
import { waitFor, type ScenarioContext } from '../scenario-context.js';
import { CpuMeter, findPostmaster, type CpuSample } from '../cpu-meter.js';
import { round } from './marketplace.js';

export const MIGRATE_FLOW = 'bench-migrate';
const EVENT = 'bench.go';

/** Version 1: the orders wait for an event (30-day timeout), then end. */
const V1 = {
  nodes: [
    { id: 'start', type: 'trigger.api', label: 'Start' },
    { id: 'wait', type: 'wait.event', label: 'Wait for go', params: { event: EVENT, timeout: '30d' } },
    { id: 'done', type: 'end', label: 'Done', params: { outcome: 'completed' } },
    { id: 'late', type: 'end', label: 'Late', params: { outcome: 'cancelled', reason: 'No go' } },
  ],
  edges: [
    { from: 'start', to: 'wait' },
    { from: 'wait', to: 'done', branch: 'received' },
    { from: 'wait', to: 'late', branch: 'timeout' },
  ],
};

/** Version 2 adds a step after the wait: the event's payload decides which End (the moved orders run it next). */
const V2 = {
  nodes: [
    ...V1.nodes,
    { id: 'check', type: 'logic.branch', label: 'Rush?', params: { when: { path: `vars.bench_go.rush`, op: 'eq', value: true } } },
    { id: 'rushed', type: 'end', label: 'Rushed', params: { outcome: 'completed', reason: 'Rushed on version 2' } },
  ],
  edges: [
    { from: 'start', to: 'wait' },
    { from: 'wait', to: 'check', branch: 'received' },
    { from: 'wait', to: 'late', branch: 'timeout' },
    { from: 'check', to: 'rushed', branch: 'true' },
    { from: 'check', to: 'done', branch: 'false' },
  ],
};

interface Batch {
  id: string;
  state: string;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  ratePerSecond: number;
  createdAt: number;
  finishedAt: number | null;
}

interface Phase {
  create: LatencySummary;
  event: LatencySummary;
  seconds: number;
  /** Orders of the other traffic cut by an error (a reset socket on an overloaded machine, an unexpected status): counted, not retried. */
  errors: number;
  firstError: string | null;
}

async function publish(client: BenchClient, graph: unknown): Promise<number> {
  await client.expect(200, 'PUT', `/api/v1/flows/${MIGRATE_FLOW}`, { name: 'Bench migrate', graph });
  return (await client.expect<{ version: number }>(200, 'POST', `/api/v1/flows/${MIGRATE_FLOW}/publish`)).version;
}

export async function migrateScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const total = options.migrateOrders;
  const rate = options.migrateRate;
  const db = await ctx.stack.createDatabase('migrate');
  const service = await startService({ databaseUrl: db.serviceUrl, redisUrl: ctx.stack.redisUrl, workspaceFile: writeBenchWorkspace({ skus: options.skus }), password: ctx.password, nodeArgs: options.serviceNodeArgs });
  const client = await BenchClient.withApiToken(service.url, ctx.password, Math.max(options.concurrency, 64) * 2);
  const problems: string[] = [];
  try {
    if ((await publish(client, V1)) !== 1) problems.push('the first publish is not version 1');
    const ids: string[] = new Array(total);
    const p = ctx.progress(`migrate: ${total} orders waiting on version 1`, total);
    await closedLoop(total, options.concurrency, async (i) => {
      const body = { flowId: MIGRATE_FLOW, input: { model: 'b2c', channel: 'api', customerId: 'cust_1', externalId: `migrate-${i}` } };
      ids[i] = (await client.expect<{ orderId: string }>(201, 'POST', '/api/v1/orders', body)).orderId;
    }, (n) => p.update(n));
    p.done();
    const version2 = await publish(client, V2);
    // A sample's deadlines before the move: a move keeps them (contract 15).
    const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(total / 20)) === 0);
    const deadlines = new Map<string, unknown>();
    for (const id of sample) deadlines.set(id, (await client.expect<{ waits: { nodeId: string; deadline: number | null }[] }>(200, 'GET', `/api/v1/orders/${id}`)).waits);

    // The other traffic: the same open loop each time; its latency is what the move may not spoil.
    const orderRate = options.rate / 3;
    const perPhase = Math.max(1, Math.round(orderRate * options.rateSeconds));
    let phaseNo = 0;
    const traffic = async (label: string): Promise<Phase> => {
      const rec = { create: new LatencyRecorder(), event: new LatencyRecorder() };
      const pl = ctx.progress(`migrate: other traffic ${label}, ${options.rate} requests/s`, perPhase);
      const prefix = `mig-other-${phaseNo++}-`;
      const t0 = performance.now();
      let errors = 0;
      let firstError: string | null = null;
      const drive = async (i: number) => {
        try {
          await driveMarketplaceOrder(i, prefix, rec, { pick: () => client, skus: options.skus, tally: new Map() });
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
      };
      await openLoop(perPhase, orderRate, drive, (n) => pl.update(n));
      pl.done();
      if (errors) ctx.log(`migrate: ${errors} orders of the other traffic ${label} cut by an error, the first: ${firstError}`);
      return { create: rec.create.summary(), event: rec.event.summary(), seconds: (performance.now() - t0) / 1000, errors, firstError };
    };
    // Warm-up (JIT, pools, the marketplace machine), not reported.
    await closedLoop(20, 4, async (i) => void (await driveMarketplaceOrder(i, 'mig-warm-', { create: new LatencyRecorder(), event: new LatencyRecorder() }, { pick: () => client, skus: options.skus, tally: new Map() })));
    const before = await traffic('before the move');

    const meter = new CpuMeter([service.pid], ctx.stack.kind === 'embedded' ? await findPostmaster(db.pool) : null);
    const started = await client.expect<{ batch: Batch }>(202, 'POST', '/api/v1/batches', {
      operation: 'migrate',
      filter: { flowId: MIGRATE_FLOW, flowVersion: 1 },
      input: { flowId: MIGRATE_FLOW, fromVersion: 1, toVersion: version2 },
      ratePerSecond: rate,
    });
    const batchId = started.batch.id;
    if (started.batch.total !== total) problems.push(`the batch has ${started.batch.total} orders, ${total} wait on version 1`);
    const tb0 = performance.now();
    const during = await traffic(`while moving at ${rate}/s`);
    const read = async () => (await client.expect<{ batch: Batch }>(200, 'GET', `/api/v1/batches/${batchId}`)).batch;
    const atTrafficEnd = await read();
    const cpuAlone0: CpuSample = meter.sample();
    const movedAtTrafficEnd = atTrafficEnd.done + atTrafficEnd.failed + atTrafficEnd.skipped;
    const pm = ctx.progress(`migrate: the batch finishes alone`, total);
    let last = atTrafficEnd;
    // Until it finishes, or makes no progress for a minute (the rate is a ceiling: one order at a time per node may be slower).
    let progressedAt = performance.now();
    let seen = movedAtTrafficEnd;
    const finished = await waitFor(async () => {
      last = await read();
      const processed = last.done + last.failed + last.skipped;
      pm.update(processed);
      if (processed > seen) [seen, progressedAt] = [processed, performance.now()];
      return last.state === 'completed' || last.state === 'cancelled' || performance.now() - progressedAt > 60_000;
    }, Number.MAX_SAFE_INTEGER, 500) && (last.state === 'completed' || last.state === 'cancelled');
    pm.done();
    const batchSeconds = (performance.now() - tb0) / 1000;
    const alone = Math.max(1, last.done + last.failed + last.skipped - movedAtTrafficEnd);
    const cpuPerMove = CpuMeter.per(cpuAlone0, meter.sample(), alone);
    if (!finished) problems.push(`the batch did not finish: ${JSON.stringify(last)}`);
    if (last.done !== total || last.failed !== 0 || last.skipped !== 0) problems.push(`batch ${last.done} done, ${last.failed} failed, ${last.skipped} skipped of ${total}`);
    const after = await traffic('after the move');

    // Checks: every order on version 2, still waiting, deadlines unchanged; the next event runs version 2's new step.
    const { rows } = await db.pool.query<{ v: number; status: string; n: string }>(
      `SELECT flow_version AS v, status, count(*) AS n FROM orders WHERE flow_id = $1 GROUP BY 1, 2`,
      [MIGRATE_FLOW],
    );
    const onV2 = rows.filter((r) => r.v === version2 && r.status === 'waiting').reduce((s, r) => s + Number(r.n), 0);
    if (onV2 !== total) problems.push(`${onV2} of ${total} orders waiting on version ${version2}: ${JSON.stringify(rows)}`);
    for (const id of sample) {
      const waits = (await client.expect<{ waits: unknown }>(200, 'GET', `/api/v1/orders/${id}`)).waits;
      if (JSON.stringify(waits) !== JSON.stringify(deadlines.get(id))) problems.push(`order ${id}: waits changed by the move: ${JSON.stringify(deadlines.get(id))} -> ${JSON.stringify(waits)}`);
    }
    await client.expect(200, 'POST', `/api/v1/orders/${ids[0]}/events`, { event: EVENT, payload: { rush: true } });
    const moved = await client.expect<{ status: string; reason: string | null }>(200, 'GET', `/api/v1/orders/${ids[0]}`);
    if (moved.status !== 'completed' || moved.reason !== 'Rushed on version 2') problems.push(`a moved order's next event ended it ${moved.status} (${moved.reason}), not by version 2's new step`);

    const measuredRate = last.finishedAt ? last.done / Math.max(0.001, (last.finishedAt - last.createdAt) / 1000) : last.done / batchSeconds;
    const impliedCores = (rate * (cpuPerMove.serviceMs + (cpuPerMove.postgresMs ?? 0))) / 1000;
    const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : 0);
    const pair = (s: LatencySummary) => `${s.p50} / ${s.p99}`;
    return {
      scenario: 'migrate',
      setup:
        `${total} orders waiting on version 1 (a wait.event with a 30-day timeout) moved to version 2 by a migrate batch at ${rate}/s; ` +
        `other traffic ${options.rate} requests/s (${round(orderRate, 1)} marketplace orders/s, POST + 2 events) for ${options.rateSeconds} s before, during and after`,
      rows: [
        row('orders moved (done / failed / skipped)', `${last.done} / ${last.failed} / ${last.skipped}`, undefined, String(total), last.done === total),
        row('batch rate: asked / measured (createdAt to finishedAt)', `${rate} / ${round(measuredRate, 1)}`, 'orders/s', `>= 0.9 x ${rate}`, measuredRate >= 0.9 * rate),
        row('batch wall time', round(batchSeconds, 1), 's'),
        row('orders moved while the other traffic ran', `${movedAtTrafficEnd} in ${round(during.seconds, 1)} s (${round(movedAtTrafficEnd / Math.max(0.001, during.seconds), 1)}/s)`),
        row('CPU per moved order, batch alone: service / PostgreSQL', `${cpuPerMove.serviceMs} / ${cpuPerMove.postgresMs ?? 'not measured'}`, 'ms'),
        row(`CPU the rate implies (${rate}/s x CPU per move)`, round(impliedCores, 2), 'cores'),
        row('other POST /orders p50 / p99: before / during / after', `${pair(before.create)} | ${pair(during.create)} | ${pair(after.create)}`, 'ms'),
        row('other events p50 / p99: before / during / after', `${pair(before.event)} | ${pair(during.event)} | ${pair(after.event)}`, 'ms'),
        row('other events p50 during / before', ratio(during.event.p50, before.event.p50), 'x'),
        row('other events p99 during / before', ratio(during.event.p99, before.event.p99), 'x'),
        row('other orders cut by an error before / during / after (not in the latencies)', `${before.errors} / ${during.errors} / ${after.errors}`, `of ${perPhase}`),
        row('other traffic phase lengths before / during / after', `${round(before.seconds, 1)} / ${round(during.seconds, 1)} / ${round(after.seconds, 1)}`, 's'),
      ],
      data: { orders: total, rate, measuredRate, batchSeconds, batch: last, movedDuringTraffic: movedAtTrafficEnd, cpuPerMove, impliedCores, before, during, after, otherRate: options.rate, rateSeconds: options.rateSeconds },
      problems,
    };
  } finally {
    client.close();
    await service.stop();
    await db.drop();
  }
}
