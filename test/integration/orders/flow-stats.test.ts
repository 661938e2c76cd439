// Where orders spend their time (contract section 17): the stats answer over orders driven with the test clock (known waits),
// what the stats query reads (its plans), the worker's exactly-once aggregation across a failed pass and a replay, percentiles
// past 10,000 runs, the live state's durations and timer waits, the flow_stats tool and the /metrics families.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import type { Queryable } from '../../../src/db/db.js';
import { FLOW_STATS_SQL, flowStatsParams } from '../../../src/orders/flow-stats-read.js';
import { FlowStatsWorker } from '../../../src/orders/flow-stats-worker.js';
import { addToBuckets } from '../../../src/orders/flow-stats-histogram.js';
import { e, n, publishFlow, startBody, startOrdersService, tokenFor } from './orders-support.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Monday 2026-01-05 09:00 UTC: the orders below are created in this hour. */
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

const REVIEW_FLOW = {
  nodes: [
    n('start', 'trigger.api'),
    n('review', 'human.approval', { title: 'Review {{order.id}}', assignee: 'finance', timeout: '2d' }, 'Finance review'),
    n('hold', 'wait.delay', { duration: '1h' }, 'Cooling-off hour'),
    n('done', 'end', { outcome: 'completed' }),
    n('declined', 'end', { outcome: 'declined', reason: 'Rejected in review' }),
    n('late', 'end', { outcome: 'declined', reason: 'Nobody decided' }),
  ],
  edges: [e('start', 'review'), e('review', 'hold', 'approved'), e('review', 'declined', 'rejected'), e('review', 'late', 'escalated'), e('hold', 'done')],
};

const FLAKY_FLOW = {
  nodes: [n('start', 'trigger.api'), n('flaky', 'test.effect', { fail: 'once' }, 'Flaky step'), n('done', 'end', { outcome: 'completed' })],
  edges: [e('start', 'flaky'), e('flaky', 'done', 'ok')],
};

let t: TestService;
let viewer: string;
const viewerPrincipal: Principal = { kind: 'person', id: 'per_stats', role: 'viewer', actor: 'stats@example.com', via: 'bearer' };

const start = async (flowId: string, title: string): Promise<string> => {
  const res = await t.call('POST', '/api/v1/orders', startBody(flowId, { title }));
  expect(res.status, res.text).toBe(201);
  return res.body.orderId;
};
const approve = async (id: string, decision: 'approved' | 'rejected' = 'approved') =>
  expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision })).status).toBe(200);
/** The stats answer once the worker has counted everything written (an advance of 0 catches it up). */
const stats = async (flowId: string, query = '', token: string | null = viewer) => {
  await t.advance(0);
  const res = await t.call('GET', `/api/v1/flows/${flowId}/stats${query}`, undefined, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
/** The node's duration in each order's live state (what the stats must agree with). */
const liveDurations = async (ids: string[], node: string): Promise<number[]> =>
  Promise.all(ids.map(async (id) => (await t.call('GET', `/api/v1/orders/${id}`)).body.nodes[node].durationMs as number));
const nearestRank = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.ceil(p * values.length) - 1];

beforeAll(async () => {
  t = await startOrdersService({ clockAt: T0 });
  await publishFlow(t, 'stats-review', REVIEW_FLOW);
  await publishFlow(t, 'stats-flaky', FLAKY_FLOW);
  viewer = await tokenFor(t, 'viewer');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/v1/flows/:id/stats over orders driven with the test clock', () => {
  const ids: string[] = [];

  it('counts runs, orders at each node now (activeNow) and nearest-rank p50/p95 of the reviews that ended, waits as the time waited', async () => {
    for (let i = 0; i < 4; i++) ids.push(await start('stats-review', `review ${i}`));
    await t.advance(10 * MIN);
    await approve(ids[0]);
    await t.advance(20 * MIN);
    await approve(ids[1]);
    await t.advance(30 * MIN);
    await approve(ids[2]);
    // T0 + 60 min: three orders in their cooling-off hour, one still in review.
    const s = await stats('stats-review');
    // Default range: the 7 days before now (T0 + 60 min and the few ms the requests took), rounded down to the hour.
    expect(s).toMatchObject({ flowId: 'stats-review', version: 1, from: T0 + HOUR - 7 * DAY, to: T0 + HOUR });
    expect(s.orders).toMatchObject({ waiting: 4, completed: 0 });
    expect(s.nodes.review).toMatchObject({ runs: 3, succeeded: 3, failed: 0, activeNow: 1 });
    expect(s.nodes.hold).toMatchObject({ runs: 0, activeNow: 3, durationMs: { p50: null, p95: null, max: null } });
    expect(s.nodes.start).toMatchObject({ runs: 4, succeeded: 4, activeNow: 0 });
    const reviews = await liveDurations(ids.slice(0, 3), 'review');
    for (const [i, minutes] of [10, 30, 60].entries()) expect(reviews[i] - minutes * MIN).toBeGreaterThanOrEqual(0);
    for (const [i, minutes] of [10, 30, 60].entries()) expect(reviews[i] - minutes * MIN).toBeLessThan(5_000);
    // Nearest rank of three: p50 is the 2nd (30 min), p95 the 3rd (60 min); exactly the live state's values.
    expect(s.nodes.review.durationMs).toEqual({ p50: nearestRank(reviews, 0.5), p95: nearestRank(reviews, 0.95), max: Math.max(...reviews) });
    expect(s.nodes.review.durationMs.p50).toBe(reviews[1]);
    expect(s.edges).toContainEqual({ from: 'start', to: 'review', branch: 'ok', count: 4 });
    expect(s.edges).toContainEqual({ from: 'review', to: 'hold', branch: 'approved', count: 3 });
    expect(s.edges).toContainEqual({ from: 'hold', to: 'done', branch: 'next', count: 0 });
  });

  it('follows the orders to their end: delays as waited, ends reached, edges taken, nobody active', async () => {
    await t.advance(2 * HOUR);
    await approve(ids[3], 'rejected');
    const s = await stats('stats-review');
    expect(s.orders).toMatchObject({ completed: 3, declined: 1, waiting: 0, running: 0 });
    expect(s.nodes.review).toMatchObject({ runs: 4, succeeded: 4, activeNow: 0 });
    const reviews = await liveDurations(ids, 'review');
    expect(s.nodes.review.durationMs).toEqual({ p50: nearestRank(reviews, 0.5), p95: nearestRank(reviews, 0.95), max: Math.max(...reviews) });
    expect(s.nodes.hold).toMatchObject({ runs: 3, succeeded: 3, activeNow: 0 });
    const holds = await liveDurations(ids.slice(0, 3), 'hold');
    // Each delay fired with the test clock at its due time; the slice that recorded it took a few ms of real time.
    for (const ms of holds) expect(ms - HOUR).toBeGreaterThanOrEqual(0);
    for (const ms of holds) expect(ms - HOUR).toBeLessThan(5_000);
    expect(s.nodes.hold.durationMs).toEqual({ p50: nearestRank(holds, 0.5), p95: nearestRank(holds, 0.95), max: Math.max(...holds) });
    expect(s.nodes.done).toMatchObject({ runs: 3, succeeded: 3 });
    expect(s.nodes.declined).toMatchObject({ runs: 1, succeeded: 1 });
    expect(s.nodes.late).toMatchObject({ runs: 0, durationMs: { p50: null, p95: null, max: null } });
    expect(s.edges).toEqual(
      expect.arrayContaining([
        { from: 'review', to: 'hold', branch: 'approved', count: 3 },
        { from: 'review', to: 'declined', branch: 'rejected', count: 1 },
        { from: 'review', to: 'late', branch: 'escalated', count: 0 },
        { from: 'hold', to: 'done', branch: 'next', count: 3 },
      ]),
    );
  });

  it('counts orders by the hour they were created in: from/to (rounded down to the hour) leave out the orders of other hours', async () => {
    await t.advance(DAY);
    const later = await start('stats-review', 'a day later');
    const all = await stats('stats-review');
    expect(all.nodes.start.runs).toBe(5);
    expect(all.nodes.review.activeNow).toBe(1);
    const first = await stats('stats-review', `?from=${T0 + 30 * MIN}&to=${T0 + 59 * MIN}`);
    expect(first).toMatchObject({ from: T0, to: T0 });
    expect(first.nodes.start.runs).toBe(4);
    // activeNow is now, whatever the range says.
    expect(first.nodes.review.activeNow).toBe(1);
    const none = await stats('stats-review', `?from=${T0 - 3 * DAY}&to=${T0 - DAY}`);
    expect(none.nodes.start.runs).toBe(0);
    expect(Object.values(none.orders).every((v) => v === 0)).toBe(true);
    await approve(later, 'rejected');
  });

  it('refuses bad ranges (400), unknown flows and versions (404), and answers a viewer', async () => {
    expect((await t.call('GET', `/api/v1/flows/stats-review/stats?from=${T0}&to=${T0 - 1}`)).status).toBe(400);
    expect((await t.call('GET', `/api/v1/flows/stats-review/stats?from=0&to=${100 * DAY}`)).status).toBe(400);
    expect((await t.call('GET', '/api/v1/flows/stats-review/stats?from=yesterday')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/flows/stats-review/stats?version=0')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/flows/stats-review/stats?version=7')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/flows/no-such-flow/stats')).status).toBe(404);
    await t.call('PUT', '/api/v1/flows/stats-draft-only', { name: 'Draft only', graph: REVIEW_FLOW });
    expect((await t.call('GET', '/api/v1/flows/stats-draft-only/stats')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/flows/stats-review/stats', undefined, { token: null })).status).toBe(401);
    expect((await t.call('GET', '/api/v1/flows/stats-review/stats', undefined, { token: viewer })).status).toBe(200);
  });

  it('the stats statements read the aggregate tables only: no order, timeline or wait row (their plans)', async () => {
    const relations = new Set<string>();
    const walk = (plan: Record<string, unknown>) => {
      if (typeof plan['Relation Name'] === 'string') relations.add(plan['Relation Name']);
      for (const child of (plan.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    const params = flowStatsParams({ flowId: 'stats-review', version: 1, fromHour: T0 - 7 * DAY + 5 * HOUR, toHour: T0 + DAY });
    expect(params.nodes.slice(4)).toEqual([T0 - 6 * DAY - 9 * HOUR, T0 + DAY - 9 * HOUR]);
    for (const [name, sql] of Object.entries(FLOW_STATS_SQL)) {
      const { rows } = await t.service.ctx.db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params[name as keyof typeof params]);
      walk(rows[0]['QUERY PLAN'][0].Plan);
    }
    expect([...relations].sort()).toEqual(['flow_stats_active', 'flow_stats_edges', 'flow_stats_nodes', 'flow_stats_nodes_daily', 'flow_stats_statuses']);
  });
});

describe('the aggregation worker', () => {
  const db = () => t.service.ctx.db;
  const answer = () => t.call('GET', `/api/v1/flows/stats-review/stats?from=${T0 - DAY}&to=${T0 + 3 * DAY}`).then((r) => r.body);

  it('a pass that fails before its commit counts nothing; reading every chunk again from cursor 0 counts nothing twice', async () => {
    await t.advance(0);
    const before = await answer();
    const id = await start('stats-review', 'counted once');
    // A worker whose write fails half way: its transaction rolls back, counts and cursor as they were.
    const failing = new FlowStatsWorker({
      db: { tx: (fn) => db().tx((c) => fn({ query: (text: string, params?: unknown[]) => (text.includes('UPDATE flow_stats_cursor') ? Promise.reject(new Error('crash')) : c.query(text, params)) } as Queryable)) },
      clock: t.service.ctx.clock,
      flows: t.service.ctx.engine!.registry,
      onError: () => undefined,
    });
    await expect(failing.catchUp()).rejects.toThrow('crash');
    const cursor = await db().query(`SELECT chunk_id FROM flow_stats_cursor`);
    await t.advance(0);
    const after = await answer();
    expect(after.nodes.start.runs).toBe(before.nodes.start.runs + 1);
    expect(after.nodes.review.activeNow).toBe(before.nodes.review.activeNow + 1);
    expect(Number((await db().query(`SELECT chunk_id FROM flow_stats_cursor`)).rows[0].chunk_id)).toBeGreaterThan(Number(cursor.rows[0].chunk_id) - 1);
    // A restarted worker (nothing in memory) reading every chunk again from the start changes no count.
    await db().query(`UPDATE flow_stats_cursor SET chunk_id = 0`);
    const restarted = new FlowStatsWorker({ db: db(), clock: t.service.ctx.clock, flows: t.service.ctx.engine!.registry, onError: () => undefined });
    await restarted.catchUp();
    expect(restarted.folded).toBeGreaterThan(5);
    expect(await answer()).toEqual(after);
    await approve(id, 'rejected');
  });

  it('past 10,000 runs the percentiles come from log buckets: at or above the exact nearest rank, less than 5 % above', async () => {
    // Two hours of a node's stats as the worker leaves them past the exact limit (durations dropped, buckets kept), in
    // the hourly table and in the daily one, as it writes them.
    const durations = Array.from({ length: 12_000 }, (_, i) => 1 + ((i * 7919) % 50_000));
    const half = [durations.slice(0, 6_000), durations.slice(6_000)];
    for (const [i, part] of half.entries())
      for (const [table, at] of [['flow_stats_nodes', 'hour'], ['flow_stats_nodes_daily', 'day']] as const)
        await db().query(
          `INSERT INTO ${table} (flow_id, flow_version, ${at}, node_id, runs, succeeded, failed, max_ms, samples, buckets) VALUES ('stats-review', 1, $1, 'late', $2, $2, 0, $3, $4, $5)`,
          [at === 'hour' ? T0 + (i + 1) * DAY : Math.floor((T0 + (i + 1) * DAY) / DAY) * DAY, part.length, Math.max(...part), i === 0 ? null : part, JSON.stringify(addToBuckets({}, part))],
        );
    const s = await answer();
    const exactP50 = nearestRank(durations, 0.5);
    const exactP95 = nearestRank(durations, 0.95);
    expect(s.nodes.late.runs).toBe(12_000);
    expect(s.nodes.late.durationMs.max).toBe(Math.max(...durations));
    expect(s.nodes.late.durationMs.p50).toBeGreaterThanOrEqual(exactP50);
    expect(s.nodes.late.durationMs.p50).toBeLessThan(exactP50 * 1.05);
    expect(s.nodes.late.durationMs.p95).toBeGreaterThanOrEqual(exactP95);
    expect(s.nodes.late.durationMs.p95).toBeLessThan(exactP95 * 1.05);
    // An hour of the range outside its whole days reads the hourly row: the first hour only.
    const hourOnly = (await t.call('GET', `/api/v1/flows/stats-review/stats?from=${T0 + DAY}&to=${T0 + DAY}`)).body;
    expect(hourOnly.nodes.late).toMatchObject({ runs: 6_000, durationMs: { max: Math.max(...half[0]) } });
    for (const table of ['flow_stats_nodes', 'flow_stats_nodes_daily']) await db().query(`DELETE FROM ${table} WHERE node_id = 'late' AND flow_id = 'stats-review'`);
  });
});

describe('durations and timer waits of one order', () => {
  it('the live state gives each ended node durationMs; a retry backoff is a timer wait until its time, in the live state and get_order', async () => {
    const id = await start('stats-flaky', 'flaky once');
    const live = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(live.status).toBe('running');
    expect(live.nodes.start.durationMs).toBeTypeOf('number');
    expect(live.nodes.flaky.durationMs).toBeNull();
    expect(live.timers).toEqual([{ nodeId: 'flaky', kind: 'retry', label: 'Flaky step', since: expect.any(Number), until: expect.any(Number) }]);
    // The first attempt failed at `since` (give or take the slice's few ms); the step's policy waits 1 s before the second.
    expect(live.timers[0].until - live.timers[0].since).toBeGreaterThan(900);
    expect(live.timers[0].until - live.timers[0].since).toBeLessThanOrEqual(1_000);
    const brief = await t.service.ctx.operations.callByName('get_order', viewerPrincipal, { orderId: id }, { ip: null });
    expect(brief).toMatchObject({ timers: [{ nodeId: 'flaky', kind: 'retry', until: live.timers[0].until }] });
    const text = t.service.ctx.operations.get('get_order')!.summarize!(brief);
    expect(text).toContain(`waiting until ${new Date(live.timers[0].until).toISOString()}`);
    await t.advance(2_000);
    const done = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(done.status).toBe('completed');
    expect(done.timers).toEqual([]);
    expect(done.nodes.flaky.durationMs).toBe(done.nodes.flaky.endedAt - done.nodes.flaky.startedAt);
    expect(done.nodes.flaky.durationMs).toBeGreaterThanOrEqual(1_000);
    const s = await stats('stats-flaky');
    expect(s.nodes.flaky).toMatchObject({ runs: 1, succeeded: 1, failed: 0, durationMs: { p50: done.nodes.flaky.durationMs, max: done.nodes.flaky.durationMs } });
  });

  it('a delay is a timer wait until it elapses (not "Not waiting for anyone")', async () => {
    const id = await start('stats-review', 'delay');
    await approve(id);
    const live = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(live.waits).toEqual([]);
    expect(live.timers).toEqual([{ nodeId: 'hold', kind: 'delay', label: 'Cooling-off hour', since: expect.any(Number), until: live.timers[0].since + HOUR }]);
    await t.advance(HOUR);
  });
});

describe('flow_stats tool and /metrics', () => {
  it('flow_stats (viewer, read) answers the stats of the REST route', async () => {
    await t.advance(0);
    const out = await t.service.ctx.operations.callByName('flow_stats', viewerPrincipal, { flowId: 'stats-review', from: T0, to: T0 + HOUR }, { ip: null });
    const rest = await t.call('GET', `/api/v1/flows/stats-review/stats?from=${T0}&to=${T0 + HOUR}`);
    expect(out).toEqual(rest.body);
    const tool = t.service.ctx.operations.get('flow_stats')!;
    expect([tool.role, tool.effect]).toEqual(['viewer', 'read']);
    expect(tool.summarize!(out)).toMatch(/^stats-review version 1: \d+ orders in the range/);
  });

  it('/metrics has step durations by flow and node type, and orders waiting by flow', async () => {
    await start('stats-review', 'waits for the gauge');
    await t.advance(0);
    const text = (await t.call('GET', '/metrics')).text;
    expect(text).toMatch(/orders_service_step_duration_seconds_count\{flow="stats-review",node_type="human.approval"\} \d+/);
    expect(text).toMatch(/orders_service_step_duration_seconds_bucket\{le="3600",flow="stats-review",node_type="wait.delay"\} \d+/);
    expect(text).toMatch(/orders_service_orders_waiting\{flow="stats-review"\} [1-9]/);
  });
});
