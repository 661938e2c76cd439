// Trying a flow before it goes live (contract 14, issue 31) through the real HTTP surface on real PostgreSQL: a simulation
// leaves nothing behind and matches a real order on the same script, never makes a real order wait for a lock, stays in
// its budget and limits; paths and the diff with live orders per node; the tools through MCP.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';
import { startSmtpCatcher, type SmtpCatcher } from '../../support/smtp-catcher.js';
import { publishFlow } from '../../support/publish-flow.js';
import { eventually, tokenFor } from '../orders/orders-support.js';
import { LIVE_ORDERS_AT_NODES_SQL } from '../../../src/engine/runtime/live-orders-at-nodes.js';

let t: TestService;
let rx: ScriptedReceiver;
let smtp: SmtpCatcher;
const DAY = 86_400_000;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  rx = await startScriptedReceiver();
  rx.script('/hook', () => ({ status: 200, body: {} }));
  t = await startTestService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', SMTP_URL: smtp.url, MAIL_FROM: 'orders@shop.example' } });
  const sub = await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/hook` });
  expect(sub.status, sub.text).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
  await smtp?.close();
});

/** Every table's row count, every stock level and the two number sequences: what "nothing changed" is checked against. */
async function databaseState() {
  const { db } = t.service.ctx;
  // The flow_stats_* tables are derived by a background worker from what earlier real orders wrote, and move on
  // their own; a simulation writes none of what they are derived from (the outbox and timeline are counted).
  const { rows: tables } = await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'flow\\_stats\\_%' ORDER BY tablename`);
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) counts[tablename] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${tablename}"`)).rows[0].n;
  const stock = (await db.query('SELECT sku, location_id, on_hand, reserved FROM stock_levels ORDER BY sku, location_id')).rows;
  const sequences = (await db.query('SELECT (SELECT last_value FROM invoice_number_seq) AS invoice, (SELECT last_value FROM purchase_order_number_seq) AS po')).rows[0];
  return { counts, stock, sequences };
}

/** The database state once what earlier tests' real orders still do in the background (timers, deliveries) has settled. */
async function settledDatabaseState() {
  let last = JSON.stringify(await databaseState());
  return eventually(async () => {
    await new Promise((r) => setTimeout(r, 300));
    const now = await databaseState();
    const same = JSON.stringify(now) === last;
    last = JSON.stringify(now);
    return same ? now : null;
  }, 10_000, 'the database to settle');
}

const simulate = (flowId: string, body: unknown, token?: string) => t.call('POST', `/api/v1/flows/${flowId}/simulate`, body, token ? { token } : {});
const live = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;
const statuses = (state: any) => Object.fromEntries(Object.values(state.nodes as Record<string, any>).map((n) => [n.id, n.status]));
/** The timeline's kinds the run wrote (the notifications feature notes a sent message after the commit: a simulation sends none). */
const kinds = (state: any) => (state.timeline as any[]).map((e) => e.kind).filter((k: string) => !k.startsWith('notification.'));

const MARKETPLACE_INPUT = { model: 'marketplace', channel: 'marketplace', title: 'Pan, tent and mugs', lines: [{ sku: 'PAN-CAST-10', qty: 2 }, { sku: 'TENT-2P', qty: 1 }, { sku: 'MUG-1', qty: 2 }] };
const BOTH_ACCEPT = [
  { event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' } },
  { event: 'seller.responded', payload: { sellerId: 'seller_bolt', decision: 'accepted' } },
  { advance: '14d' },
];

describe('simulating the marketplace flow (contract 14)', () => {
  it('both sellers accept and the return window passes: completed on the expected path; the database has not changed, no webhook reached the subscriber, no mail left; a real order on the same script does the same (and is heard)', async () => {
    const before = await databaseState();
    const res = await simulate('tpl-marketplace-order', { input: MARKETPLACE_INPUT, script: BOTH_ACCEPT });
    expect(res.status, res.text).toBe(200);
    const sim = res.body;
    expect(sim).toMatchObject({ simulated: true, status: 'completed', reason: null, scriptUsed: 3, flow: { id: 'tpl-marketplace-order', version: null } });
    expect(sim.orderId).toMatch(/^sim_[0-9a-f]{24}$/);
    expect(sim.path).toEqual([
      'start', 'price', 'fraud', 'authorize', 'split', 'notify_sellers',
      'acceptance_loop', 'wait_sellers', 'record_answer', 'acceptance_loop', 'wait_sellers', 'record_answer',
      'reserve', 'ship', 'capture', 'return_window', 'wait_returns', 'returns_check', 'payout', 'completed',
    ]);
    expect(sim.vars.payouts).toEqual([{ sellerId: 'seller_acme', net: 79.2 }, { sellerId: 'seller_bolt', net: 179.1 }]);
    expect(sim.order.total).toBe(314);
    expect(sim.events.map((e: any) => e.event)).toEqual(['order.shipped', 'order.paid', 'order.payout_scheduled', 'order.completed']);
    // The clock moved by the script's 14 days; the service's clock did not.
    expect(sim.updatedAt - sim.createdAt).toBe(14 * DAY);
    expect(Math.abs(t.service.ctx.clock.now() - sim.createdAt)).toBeLessThan(60_000);
    expect((await t.call('GET', `/api/v1/orders/${sim.orderId}`)).status).toBe(404);

    expect(await databaseState()).toEqual(before);
    await new Promise((r) => setTimeout(r, 400));
    expect(rx.on('/hook')).toEqual([]);
    expect(smtp.mails).toEqual([]);

    // The same script on a real order: the same end, the same node statuses; its webhooks and the sellers' mails do go out.
    const started = await t.call('POST', '/api/v1/orders', { flowId: 'tpl-marketplace-order', input: MARKETPLACE_INPUT });
    expect(started.status, started.text).toBe(201);
    const id = started.body.orderId;
    for (const step of BOTH_ACCEPT.slice(0, 2)) expect((await t.call('POST', `/api/v1/orders/${id}/events`, step)).body.delivered).toBe(true);
    await t.advance(14 * DAY);
    const real = await live(id);
    expect(real.status).toBe('completed');
    expect(statuses(real)).toEqual(statuses(sim));
    expect(real.vars.payouts).toEqual(sim.vars.payouts);
    expect(kinds(real)).toEqual(kinds(sim));
    await eventually(async () => rx.on('/hook').length >= 4 && smtp.mails.length >= 2, 10_000, 'the real order heard');
  });
});

describe('a simulation and a real order on the same script (contract 14: rollback paths, approvals, event timeouts, http.call answers)', () => {
  /** start → authorize → call (http.call, one retry after 10 s) → review (approval, 1 d) → pay (payment.confirmed, 2 h) → done; the timeout ends cancelled (undoing the authorization). */
  const graph = (path: string) => ({
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'authorize', type: 'commerce.authorize_payment', label: 'Authorize' },
      { id: 'call', type: 'http.call', label: 'Tell the ERP', params: { url: `${rx.url}${path}`, body: { order: '{{order.id}}' }, retry: { attempts: 1, backoff: '10s' } } },
      { id: 'review', type: 'human.approval', label: 'Review', params: { title: 'Review {{order.id}}', timeout: '1d' } },
      { id: 'pay', type: 'wait.event', label: 'Payment', params: { event: 'payment.confirmed', timeout: '2h' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      { id: 'unpaid', type: 'end', params: { outcome: 'cancelled', reason: 'No payment' } },
      { id: 'refused', type: 'end', params: { outcome: 'declined', reason: 'Refused in review' } },
    ],
    edges: [
      { from: 'start', to: 'authorize' },
      { from: 'authorize', to: 'call' },
      { from: 'call', to: 'review' },
      { from: 'review', to: 'pay', branch: 'approved' },
      { from: 'review', to: 'refused', branch: 'rejected' },
      { from: 'review', to: 'refused', branch: 'escalated' },
      { from: 'pay', to: 'done', branch: 'received' },
      { from: 'pay', to: 'unpaid', branch: 'timeout' },
    ],
  });
  const input = { model: 'b2c', title: 'Both ways', lines: [{ sku: 'MUG-1', qty: 2, unitPrice: 12.5 }] };

  it('a 503 retried after 10 s then answered, an approval, an event wait timing out into a cancelling End: the same statuses, outputs, rollback and timeline', async () => {
    await publishFlow(t, 'trial-both', graph('/erp-both'));
    rx.script('/erp-both', (k) => (k % 2 === 1 ? { status: 503, body: { busy: true } } : { status: 200, body: { erp: 'ok' } }));
    const token = await tokenFor(t, 'viewer');
    const res = await simulate('trial-both', {
      version: 1,
      input,
      script: [{ respond: 'call', status: 503, body: { busy: true } }, { advance: '10s' }, { respond: 'call', status: 200, body: { erp: 'ok' } }, { decision: 'approved', note: 'ok' }, { advance: '3h' }],
    }, token);
    expect(res.status, res.text).toBe(200);
    const sim = res.body;
    expect(sim).toMatchObject({ status: 'cancelled', reason: 'No payment', rollback: { outcome: 'cancelled', error: null }, scriptUsed: 5 });
    expect(sim.calls.map((c: any) => [c.attempt, c.status, c.scripted])).toEqual([[1, 503, true], [2, 200, true]]);
    expect(rx.on('/erp-both')).toEqual([]);

    const started = await t.call('POST', '/api/v1/orders', { flowId: 'trial-both', input });
    const id = started.body.orderId;
    await eventually(async () => kinds(await live(id)).includes('node.retry'), 10_000, 'the first answer');
    await t.advance(10_000);
    await eventually(async () => (await live(id)).waits.length === 1, 10_000, 'the approval');
    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved', note: 'ok' })).status).toBe(200);
    await t.advance(3 * 3_600_000);
    const real = await live(id);
    expect(real).toMatchObject({ status: 'cancelled', reason: 'No payment', rollback: { outcome: 'cancelled', error: null } });
    expect(statuses(real)).toEqual(statuses(sim));
    expect(real.nodes.call.output).toEqual(sim.nodes.call.output);
    expect(real.nodes.pay.branches).toEqual(sim.nodes.pay.branches);
    expect(real.nodes.review.output).toMatchObject({ decision: 'approved', outcome: 'approved', note: 'ok' });
    expect(sim.nodes.review.output).toMatchObject({ decision: 'approved', outcome: 'approved', note: 'ok', by: 'simulation' });
    expect(kinds(real)).toEqual(kinds(sim));
    expect(rx.on('/erp-both')).toHaveLength(2);
  });

  it('failSteps: the step fails at once as if its retries ran out, ending as a real order whose call keeps failing (rolled back, the authorization undone)', async () => {
    await publishFlow(t, 'trial-fail', graph('/erp-down'));
    rx.script('/erp-down', () => ({ status: 503, body: { down: true } }));
    const token = await tokenFor(t, 'viewer');
    const res = await simulate('trial-fail', { input, failSteps: ['call'] }, token);
    expect(res.status, res.text).toBe(200);
    const sim = res.body;
    expect(sim).toMatchObject({ status: 'rolled_back', rollback: { outcome: 'rolled_back', error: null }, path: ['start', 'authorize', 'call'] });
    expect(sim.timeline.some((e: any) => e.kind === 'node.retry')).toBe(false);

    const id = (await t.call('POST', '/api/v1/orders', { flowId: 'trial-fail', input })).body.orderId;
    await eventually(async () => kinds(await live(id)).includes('node.retry'), 10_000, 'the first refusal');
    await t.advance(10_000);
    const real = await eventually(async () => {
      const s = await live(id);
      return s.status === 'rolled_back' ? s : null;
    }, 10_000, 'rolled back');
    expect(real.rollback).toEqual(sim.rollback);
    expect(statuses(real)).toEqual(statuses(sim));
    expect(statuses(sim)).toMatchObject({ authorize: 'rolled_back', call: 'failed', review: 'skipped', done: 'skipped' });
  });
});

describe('a simulation beside real orders', () => {
  it('real orders reserving the same SKU never wait for a lock while simulations of it run: no real order statement waits, and nothing waits on a simulation (pg_locks)', async () => {
    const tokens = await Promise.all([1, 2, 3, 4].map(() => tokenFor(t, 'viewer')));
    const simInput = { model: 'b2c', title: 'Simulated mugs', lines: [{ sku: 'MUG-1', qty: 3 }] };
    let running = true;
    let simulated = 0;
    let samples = 0;
    /** Every lock wait seen: the waiting statement and the statements of what blocks it. */
    const waits: { waiting: string; blockers: string }[] = [];
    const sampler = (async () => {
      while (running) {
        const { rows } = await t.service.ctx.db.query<{ waiting: string; blockers: string | null }>(
          `SELECT a.query AS waiting, (SELECT string_agg(b.query, ' | ') FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(l.pid))) AS blockers
             FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()`,
        );
        for (const r of rows) waits.push({ waiting: r.waiting, blockers: r.blockers ?? '' });
        samples++;
      }
    })();
    const simulators = tokens.map(async (token) => {
      while (running) {
        const res = await simulate('tpl-storefront-order', { input: simInput }, token);
        if (res.status === 429) break;
        expect(res.status, res.text).toBe(200);
        expect(res.body.nodes.reserve.status).toBe('succeeded');
        simulated++;
      }
    });
    const real: string[] = [];
    const stockBefore = (await t.service.ctx.db.query<{ n: number }>("SELECT sum(on_hand)::int AS n FROM stock_levels WHERE sku = 'MUG-1'")).rows[0].n;
    for (let i = 0; i < 8; i++) {
      const res = await t.call('POST', '/api/v1/orders', { flowId: 'tpl-storefront-order', input: { model: 'b2c', title: `Real mugs ${i}`, lines: [{ sku: 'MUG-1', qty: 1 }] } });
      expect(res.status, res.text).toBe(201);
      real.push(res.body.orderId);
    }
    running = false;
    await Promise.all([sampler, ...simulators]);
    expect(simulated).toBeGreaterThan(4);
    expect(samples).toBeGreaterThan(10);
    // A simulation reads its snapshot in one statement (it names invoice_number_seq) and holds no lock beyond it.
    expect(waits.filter((w) => /stock_levels|stock_reservations|FROM orders|invoice_number_seq/.test(w.waiting) || /invoice_number_seq/.test(w.blockers))).toEqual([]);
    for (const id of real) expect((await live(id)).nodes.reserve.status).toBe('succeeded');
    // Only the real orders took units (8 shipped mugs); the simulations' reservations stayed in memory.
    expect((await t.service.ctx.db.query<{ n: number }>("SELECT sum(on_hand)::int AS n FROM stock_levels WHERE sku = 'MUG-1'")).rows[0].n).toBe(stockBefore - 8);
  });
});

describe('bounds and refusals', () => {
  const loop = {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'loop', type: 'logic.loop', params: { maxPasses: 1000 } },
      { id: 'nap', type: 'wait.delay', params: { duration: '1m' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
    ],
    edges: [
      { from: 'start', to: 'loop' },
      { from: 'loop', to: 'nap', branch: 'next' },
      { from: 'nap', to: 'loop' },
      { from: 'loop', to: 'done', branch: 'exhausted' },
    ],
  };
  const simple = { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 1 }] };

  it('a run past its budget of 1,000 slices answers 400 saying so, and leaves nothing behind', async () => {
    const saved = await t.call('PUT', '/api/v1/flows/trial-loop', { name: 'Loop', graph: loop });
    expect(saved.body.problems).toEqual([]);
    const token = await tokenFor(t, 'viewer');
    const before = await settledDatabaseState();
    const res = await simulate('trial-loop', { input: simple, script: [{ advance: '2000m' }] }, token);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('1,000 slices');
    expect(await databaseState()).toEqual(before);
  });

  it('refuses with the spec\'s statuses: unknown flow or version 404, a graph with problems 400 with them as issues, an entry that does not apply 400 naming its index, a hold, a bad failStep or input 400', async () => {
    const token = await tokenFor(t, 'viewer');
    expect((await simulate('no-such-flow', { input: simple }, token)).status).toBe(404);
    expect((await simulate('tpl-storefront-order', { version: 99, input: simple }, token)).status).toBe(404);
    const broken = await simulate('trial-loop', { graph: { nodes: [{ id: 'start', type: 'trigger.api' }], edges: [] }, input: simple }, token);
    expect(broken.status).toBe(400);
    expect(broken.body.issues).toEqual([expect.objectContaining({ path: 'graph.nodes.start', message: expect.stringContaining('not connected') })]);
    // The loop flow waits at its delay: an event nobody waits for does not apply (a run that has ended uses no more entries).
    const stray = await simulate('trial-loop', { input: simple, script: [{ event: 'payment.confirmed' }] }, token);
    expect(stray.status).toBe(400);
    expect(stray.body).toMatchObject({ error: expect.stringContaining('Script entry 0 does not apply'), issues: [{ path: 'script.0' }] });
    const hold = await simulate('trial-loop', { input: simple, script: [{ hold: 'nap', action: 'retry' }] }, token);
    expect(hold.status).toBe(400);
    expect(hold.body.error).toContain('no such wait');
    const failStep = await simulate('tpl-storefront-order', { input: simple, failSteps: ['fraud_review', 'nope'] }, token);
    expect(failStep.status).toBe(400);
    expect(failStep.body.issues.map((i: any) => i.path)).toEqual(['failSteps.0', 'failSteps.1']);
    const badInput = await simulate('tpl-storefront-order', { input: { ...simple, currency: 'XXX' } }, token);
    expect(badInput.status).toBe(400);
    expect((await simulate('tpl-storefront-order', { input: simple, version: 1, graph: loop }, token)).status).toBe(400);
    expect((await simulate('tpl-storefront-order', { input: simple }, null as unknown as string)).status).toBe(200);
  });

  it('one caller starts at most 20 simulations a minute: the 21st is 429 with Retry-After; another caller is not held back', async () => {
    const token = await tokenFor(t, 'viewer');
    for (let i = 0; i < 20; i++) expect((await simulate('trial-loop', { input: simple }, token)).status).toBe(200);
    const refused = await simulate('trial-loop', { input: simple }, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await simulate('trial-loop', { input: simple }, await tokenFor(t, 'viewer'))).status).toBe(200);
  });
});

describe('paths and the diff with live orders (contract 14)', () => {
  const v1 = {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'wait_a', type: 'wait.event', params: { event: 'a.done', timeout: '3d' } },
      { id: 'wait_b', type: 'wait.event', params: { event: 'b.done' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      { id: 'late', type: 'end', params: { outcome: 'cancelled' } },
    ],
    edges: [
      { from: 'start', to: 'wait_a' },
      { from: 'wait_a', to: 'wait_b', branch: 'received' },
      { from: 'wait_a', to: 'late', branch: 'timeout' },
      { from: 'wait_b', to: 'done', branch: 'received' },
      { from: 'wait_b', to: 'late', branch: 'timeout' },
    ],
  };

  it('the diff names what changed and counts the unfinished orders of the older version by the node where each waits', async () => {
    await publishFlow(t, 'trial-impact', v1);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.call('POST', '/api/v1/orders', { flowId: 'trial-impact', input: { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 1 }] } })).body.orderId);
    expect((await t.call('POST', `/api/v1/orders/${ids[0]}/events`, { event: 'a.done' })).body.delivered).toBe(true);
    const v2 = {
      nodes: [v1.nodes[0], { ...v1.nodes[1], params: { event: 'a.done', timeout: '5d' } }, v1.nodes[3], v1.nodes[4]],
      edges: [v1.edges[0], { from: 'wait_a', to: 'done', branch: 'received' }, v1.edges[2]],
    };
    expect((await t.call('PUT', '/api/v1/flows/trial-impact', { name: 'trial-impact', graph: v2 })).status).toBe(200);
    const diff = await t.call('GET', '/api/v1/flows/trial-impact/diff');
    expect(diff.status, diff.text).toBe(200);
    expect(diff.body).toEqual({
      from: 1,
      to: 'draft',
      nodes: { added: [], removed: ['wait_b'], changed: [{ id: 'wait_a', fields: ['params.timeout'] }] },
      edges: {
        added: [{ from: 'wait_a', to: 'done', branch: 'received' }],
        removed: [
          { from: 'wait_a', to: 'wait_b', branch: 'received' },
          { from: 'wait_b', to: 'done', branch: 'received' },
          { from: 'wait_b', to: 'late', branch: 'timeout' },
        ],
      },
      liveOrders: { total: 3, atNode: { wait_a: 2, wait_b: 1 } },
    });
    // The count follows the orders: one finishes, one moves on.
    await t.call('POST', `/api/v1/orders/${ids[0]}/events`, { event: 'b.done' });
    await t.call('POST', `/api/v1/orders/${ids[1]}/events`, { event: 'a.done' });
    expect((await t.call('GET', '/api/v1/flows/trial-impact/diff?from=1&to=draft')).body.liveOrders).toEqual({ total: 2, atNode: { wait_a: 1, wait_b: 1 } });
    // Against itself: nothing changed.
    expect((await t.call('GET', '/api/v1/flows/trial-impact/diff?from=1&to=1')).body).toMatchObject({ to: 1, nodes: { added: [], removed: [], changed: [] } });
    expect((await t.call('GET', '/api/v1/flows/trial-impact/diff?from=7')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/flows/trial-impact/diff?to=next')).status).toBe(400);
    await t.call('PUT', '/api/v1/flows/trial-unpublished', { name: 'u', graph: v1 });
    expect((await t.call('GET', '/api/v1/flows/trial-unpublished/diff')).status).toBe(409);
    // The count reads only unfinished orders, through the partial index of migration 0021 (sequential scans off: the table is small here).
    const plan = await t.service.ctx.db.tx(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return (await tx.query(`EXPLAIN ${LIVE_ORDERS_AT_NODES_SQL}`, ['trial-impact', 1])).rows.map((r) => String(r['QUERY PLAN'])).join('\n');
    });
    expect(plan).toContain('orders_live_version_idx');
  });

  it('paths of a version and of the draft; a draft with problems is 400; a 500-node draft answers truncated within the budget', async () => {
    const v = await t.call('GET', '/api/v1/flows/trial-impact/paths?version=1');
    expect(v.status, v.text).toBe(200);
    expect(v.body.paths.map((p: any) => p.nodes.join(' '))).toEqual(['start wait_a wait_b done', 'start wait_a wait_b late', 'start wait_a late']);
    expect(v.body).toMatchObject({ version: 1, unreachable: [], truncated: false });
    const draft = await t.call('GET', '/api/v1/flows/trial-impact/paths');
    expect(draft.body.paths).toHaveLength(2);
    expect((await t.call('GET', '/api/v1/flows/no-such-flow/paths')).status).toBe(404);
    await t.call('PUT', '/api/v1/flows/trial-broken', { name: 'broken', graph: { nodes: [{ id: 'start', type: 'trigger.api' }], edges: [] } });
    expect((await t.call('GET', '/api/v1/flows/trial-broken/paths')).status).toBe(400);

    const nodes: any[] = [{ id: 'start', type: 'trigger.api' }];
    const edges: any[] = [{ from: 'start', to: 'b0' }];
    for (let i = 0; i < 249; i++) {
      const next = i < 248 ? `b${i + 1}` : 'done';
      nodes.push({ id: `b${i}`, type: 'logic.branch', params: { when: { path: 'order.total', op: 'gt', value: i } } }, { id: `s${i}`, type: 'wait.delay', params: { duration: '1m' } });
      edges.push({ from: `b${i}`, to: `s${i}`, branch: 'true' }, { from: `b${i}`, to: next, branch: 'false' }, { from: `s${i}`, to: next });
    }
    nodes.push({ id: 'done', type: 'end', params: { outcome: 'completed' } });
    const saved = await t.call('PUT', '/api/v1/flows/trial-wide', { name: 'wide', graph: { nodes, edges } });
    expect(saved.body.problems).toEqual([]);
    const began = Date.now();
    const wide = await t.call('GET', '/api/v1/flows/trial-wide/paths');
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(wide.status).toBe(200);
    expect(wide.body).toMatchObject({ truncated: true, unreachable: [] });
    expect(wide.body.paths).toHaveLength(500);
  });
});

describe('docs/flows.md "Your first flow" runs as written', () => {
  it('the graph under <!-- first-flow --> saves without problems; simulated it takes the review for $629.93, not for a mug; failSteps rolls it back; it publishes', async () => {
    const doc = readFileSync('docs/flows.md', 'utf8');
    const graph = JSON.parse(/<!-- first-flow -->\s*```json\n([\s\S]*?)```/.exec(doc)![1]);
    const saved = await t.call('PUT', '/api/v1/flows/big-order-review', { name: 'Big order review', model: 'b2c', graph });
    expect(saved.body.problems).toEqual([]);
    const token = await tokenFor(t, 'viewer');
    const lamps = { model: 'b2c', lines: [{ sku: 'LAMP-OAK', qty: 7 }] };
    const approved = (await simulate('big-order-review', { input: lamps, script: [{ decision: 'approved' }] }, token)).body;
    expect(approved).toMatchObject({ status: 'completed', path: ['start', 'price', 'big', 'review', 'authorize', 'reserve', 'done'] });
    expect(approved.order.total).toBe(629.93);
    const waiting = (await simulate('big-order-review', { input: lamps }, token)).body;
    expect(waiting).toMatchObject({ status: 'waiting', waits: [expect.objectContaining({ nodeId: 'review', kind: 'approval' })] });
    expect(waiting.nodes.review.status).toBe('waiting');
    const mug = (await simulate('big-order-review', { input: { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 1 }] } }, token)).body;
    expect(mug.path).toEqual(['start', 'price', 'big', 'authorize', 'reserve', 'done']);
    const failed = (await simulate('big-order-review', { input: lamps, script: [{ decision: 'approved' }], failSteps: ['reserve'] }, token)).body;
    expect(failed).toMatchObject({ status: 'rolled_back', nodes: { authorize: { status: 'rolled_back' }, reserve: { status: 'failed' } } });
    expect((await t.call('POST', '/api/v1/flows/big-order-review/publish')).body).toEqual({ version: 1 });
  });
});

describe('the tools simulate_flow and flow_impact (contract 14, through MCP)', () => {
  async function mcp(token: string, method: string, params: unknown): Promise<any> {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const text = await res.text();
    const message = res.headers.get('content-type')?.includes('text/event-stream') ? JSON.parse(text.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) : JSON.parse(text);
    return message.result;
  }

  it('a viewer lists both tools and calls them: the simulate answer and the diff answer as structured content', async () => {
    const viewer = await tokenFor(t, 'viewer');
    const listed = await mcp(viewer, 'tools/list', {});
    expect(listed.tools.map((x: any) => x.name)).toEqual(expect.arrayContaining(['simulate_flow', 'flow_impact']));
    const simulated = await mcp(viewer, 'tools/call', { name: 'simulate_flow', arguments: { flowId: 'tpl-marketplace-order', input: MARKETPLACE_INPUT, script: BOTH_ACCEPT } });
    expect(simulated.isError).toBeFalsy();
    expect(simulated.structuredContent).toMatchObject({ simulated: true, status: 'completed', scriptUsed: 3 });
    expect(simulated.content[0].text).toContain('Nothing was kept');
    const impact = await mcp(viewer, 'tools/call', { name: 'flow_impact', arguments: { flowId: 'trial-impact', from: 1 } });
    expect(impact.structuredContent).toMatchObject({ from: 1, to: 'draft', nodes: { removed: ['wait_b'] }, liveOrders: { total: 2 } });
    expect(impact.content[0].text).toContain('1 at wait_b');
  });
});
