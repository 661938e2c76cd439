// Moving live orders to a new flow version over real HTTP (runtime contract 15, issue 34): the dry run changes nothing,
// the move runs as a batch, waits, deadlines and inbox rows are kept, the next decision or event runs the new graph, a later
// failure undoes every step completed before and after the move in reverse, a renamed held http.call keeps its
// Idempotency-Key; the refusals name the node; bad requests are 400/404 and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { e, eventually, n, publishFlow, startBody, startOrdersService, tokenFor } from '../orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

let t: TestService;
let rx: ScriptedReceiver;
const DAY = 86_400_000;
const FAST = { batches: { leaseMs: 1_500, pollMs: 100, recoverMs: 200, creatorTtlMs: 200 } };

beforeAll(async () => {
  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' }, start: FAST });
  rx = await startScriptedReceiver();
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

let flows = 0;
const live = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;
const settled = (id: string, status: string) => eventually(async () => ((await live(id)).status === status ? live(id) : null), 10_000, `order ${status}`);
const effects = async (id: string) =>
  (await t.service.ctx.db.query<{ node_id: string; kind: string }>('SELECT node_id, kind FROM test_effects WHERE order_id = $1 ORDER BY id', [id])).rows.map((r) => `${r.kind} ${r.node_id}`);
const migrate = (flow: string, body: Record<string, unknown>, options?: { token?: string }) => t.call('POST', `/api/v1/flows/${flow}/migrations`, body, options);

async function start(flow: string, title = 'migrating'): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', startBody(flow, { title }));
  expect(res.status, res.text).toBe(201);
  return res.body.orderId;
}

/** Moves the orders and waits for the batch to finish; answers the batch and its results. */
async function moveAll(flow: string, body: Record<string, unknown>): Promise<{ batch: any; results: any[] }> {
  const res = await migrate(flow, body);
  expect(res.status, res.text).toBe(202);
  return eventually(async () => {
    const got = (await t.call('GET', `/api/v1/batches/${res.body.batch.id}`)).body;
    return got.batch.state === 'completed' ? got : null;
  }, 15_000, 'the migrate batch');
}

/** start → s1, s2 (test effects) → `wait` → [added (a test effect, failing when told)] → s3 → done; each wait's other branches to an End. */
function graph(wait: ReturnType<typeof n>, waitBranches: Record<string, string>, v: { added?: boolean; addedFails?: boolean; next?: string } = {}) {
  const next = v.next ?? Object.keys(waitBranches).find((b) => waitBranches[b] === 'next')!;
  const nodes = [n('start', 'trigger.api'), n('s1', 'test.effect'), n('s2', 'test.effect'), wait, n('s3', 'test.effect'), n('done', 'end', { outcome: 'completed' })];
  const edges = [e('start', 's1'), e('s1', 's2'), e('s2', wait.id), e(v.added ? 'added' : wait.id, 's3', v.added ? undefined : next), e('s3', 'done')];
  if (v.added) {
    nodes.push(n('added', 'test.effect', v.addedFails ? { fail: 'terminal' } : {}, 'Added step'));
    edges.push(e(wait.id, 'added', next));
  }
  for (const [branch, to] of Object.entries(waitBranches)) {
    if (to === 'next') continue;
    nodes.push(n(`${branch}_end`, 'end', { outcome: 'failed', reason: `${branch}` }));
    edges.push(e(wait.id, `${branch}_end`, branch));
  }
  return { nodes, edges };
}

const approval = n('review', 'human.approval', { title: 'Review {{order.id}}', assignee: 'finance', timeout: '3d' }, 'Finance review');
const APPROVAL_BRANCHES = { approved: 'next', rejected: 'end', escalated: 'end' };
const eventWait = n('goods', 'wait.event', { event: 'goods.received', timeout: '2d' }, 'Wait for goods');
const EVENT_BRANCHES = { received: 'next', timeout: 'end' };

describe('POST /api/v1/flows/:id/migrations (contract 15)', () => {
  it('an order at an approval: the dry run lists it and changes nothing; the move keeps its wait and inbox row; the decision runs the new step', async () => {
    const flow = `mig-approval-${++flows}`;
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    const id = await start(flow);
    const ended = await start(flow);
    expect((await t.call('POST', `/api/v1/orders/${ended}/cancel`, { reason: 'not needed' })).status).toBe(200);
    expect(await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES, { added: true }))).toBe(2);
    const before = await live(id);
    const row = async () => (await t.service.ctx.db.query('SELECT flow_version, snapshot, nodes::text, updated_at FROM orders WHERE id = $1', [id])).rows[0];
    const rowBefore = await row();

    // The candidates are the unfinished orders of the version; a listed order that ended is refused with the reason.
    const dry = await migrate(flow, { fromVersion: 1, dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toEqual({ fromVersion: 1, toVersion: 2, movableCount: 1, refusedCount: 0, movable: [id], refused: [] });
    const listed = await migrate(flow, { fromVersion: 1, orderIds: [id, ended, 'ord_nowhere'], dryRun: true });
    expect(listed.body).toEqual({
      fromVersion: 1,
      toVersion: 2,
      movableCount: 1,
      refusedCount: 2,
      movable: [id],
      refused: [
        { orderId: ended, reason: 'Order is cancelled: only waiting orders move' },
        { orderId: 'ord_nowhere', reason: 'Unknown order' },
      ],
    });
    expect(await row()).toEqual(rowBefore);

    const { batch, results } = await moveAll(flow, { fromVersion: 1 });
    expect(batch).toMatchObject({ operation: 'migrate', total: 1, done: 1, skipped: 0, failed: 0 });
    expect(results).toEqual([{ orderId: id, outcome: 'done' }]);
    const after = await live(id);
    expect(after.order.flowVersion).toBe(2);
    expect(after.status).toBe('waiting');
    expect(after.waits).toEqual(before.waits);
    expect(after.timeline.find((x: any) => x.kind === 'order.moved')).toMatchObject({ message: 'Moved from version 1 to version 2', nodeId: 'review' });
    const inbox = (await t.call('GET', '/api/v1/approvals')).body.approvals.filter((a: any) => a.orderId === id);
    expect(inbox).toEqual([expect.objectContaining({ orderId: id, nodeId: 'review', since: before.waits[0].since, deadline: before.waits[0].deadline })]);

    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved' })).status).toBe(200);
    await settled(id, 'completed');
    expect(await effects(id)).toEqual(['do s1', 'do s2', 'do added', 'do s3']);
  });

  it('flow stats follow a moved order: the old version stops counting it waiting and active, the new one counts it; runs stay where they ran', async () => {
    const flow = `mig-stats-${++flows}`;
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    const id = await start(flow);
    const stats = async (version: number) => {
      await t.service.ctx.flowStatsWorker!.catchUp();
      const res = await t.call('GET', `/api/v1/flows/${flow}/stats?version=${version}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect(await stats(1)).toMatchObject({ orders: { waiting: 1 }, nodes: { review: { activeNow: 1 }, s1: { runs: 1 } } });
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES, { added: true }));
    await moveAll(flow, { fromVersion: 1 });

    const v1 = await stats(1);
    expect(v1.orders.waiting).toBe(0);
    expect(v1.nodes.review.activeNow).toBe(0);
    expect(v1.nodes.s1.runs).toBe(1);
    const v2 = await stats(2);
    expect(v2.orders).toMatchObject({ waiting: 1, completed: 0 });
    expect(v2.nodes.review.activeNow).toBe(1);
    expect(v2.nodes.s1.runs).toBe(0);

    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved' })).status).toBe(200);
    await settled(id, 'completed');
    const done = await stats(2);
    expect(done.orders).toMatchObject({ completed: 1, waiting: 0 });
    expect(done.nodes.review).toMatchObject({ activeNow: 0, runs: 1, succeeded: 1 });
    expect(done.nodes.added.runs).toBe(1);
    expect((await stats(1)).nodes.review.activeNow).toBe(0);
  });

  it('an event wait with its deadline part-way elapsed keeps its deadline: the timeout fires at the original time; another order takes the event into the new step', async () => {
    const flow = `mig-event-${++flows}`;
    await publishFlow(t, flow, graph(eventWait, EVENT_BRANCHES));
    const late = await start(flow);
    const onTime = await start(flow);
    const before = await live(late);
    await t.advance(DAY);
    await publishFlow(t, flow, graph(eventWait, EVENT_BRANCHES, { added: true }));
    await moveAll(flow, { fromVersion: 1, toVersion: 2 });
    const moved = await live(late);
    expect(moved.order.flowVersion).toBe(2);
    expect(moved.waits).toEqual(before.waits);
    const timer = async () => (await t.service.ctx.db.query('SELECT id, due_at, node_id FROM timers WHERE order_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [late])).rows;
    expect(await timer()).toEqual([expect.objectContaining({ due_at: String(before.waits[0].deadline), node_id: 'goods' })]);

    expect((await t.call('POST', `/api/v1/orders/${onTime}/events`, { event: 'goods.received', payload: {} })).body).toEqual({ delivered: true, nodeId: 'goods' });
    await settled(onTime, 'completed');
    expect(await effects(onTime)).toEqual(['do s1', 'do s2', 'do added', 'do s3']);

    // A second short of the deadline nothing has fired (the test clock runs on at real speed); past it the timeout
    // branch ran, with the clock standing at the deadline.
    await t.advance(before.waits[0].deadline - t.service.ctx.clock.now() - 1_000);
    expect((await live(late)).status).toBe('waiting');
    await t.advance(2_000);
    const failed = await settled(late, 'failed');
    expect(failed.nodes.goods).toMatchObject({ status: 'succeeded', branches: ['timeout'] });
    expect(failed.nodes.goods.endedAt).toBeGreaterThanOrEqual(before.waits[0].deadline);
    expect(failed.nodes.goods.endedAt).toBeLessThan(before.waits[0].deadline + 2_000);
  });

  it('a failure after the move undoes every step completed before and after it, in reverse', async () => {
    const flow = `mig-rollback-${++flows}`;
    const failingS3 = (g: ReturnType<typeof graph>) => ({ ...g, nodes: g.nodes.map((x) => (x.id === 's3' ? n('s3', 'test.effect', { fail: 'terminal' }) : x)) });
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    const id = await start(flow);
    await publishFlow(t, flow, failingS3(graph(approval, APPROVAL_BRANCHES, { added: true })));
    await moveAll(flow, { fromVersion: 1 });
    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved' })).status).toBe(200);
    const done = await settled(id, 'failed');
    // s3's own write went with its failure (its savepoint); the rest is undone latest first, across the move.
    expect(await effects(id)).toEqual(['do s1', 'do s2', 'do added', 'undo added', 'undo s2', 'undo s1']);
    expect(done.rollback).toMatchObject({ outcome: 'failed' });
  });

  it('a held http.call renamed by mapping moves: the retry at its new id keeps the Idempotency-Key and the order completes', async () => {
    const path = `/gw-mig-${++flows}`;
    let down = true;
    rx.script(path, () => (down ? { status: 503 } : { status: 201, body: { ok: true } }));
    const flow = `mig-held-${flows}`;
    const held = (id: string) => ({
      nodes: [n('start', 'trigger.api'), n('s1', 'test.effect'), n(id, 'http.call', { url: `${rx.url}${path}`, retry: { attempts: 1, backoff: '5s' }, onFailure: 'hold' }, 'Charge'), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 's1'), e('s1', id), e(id, 'done')],
    });
    await publishFlow(t, flow, held('charge'));
    const id = await start(flow);
    await eventually(async () => (await live(id)).timeline.some((x: any) => x.kind === 'node.retry'), 10_000, 'the first failure');
    await t.advance(5_000);
    await eventually(async () => (await live(id)).holds.length === 1, 10_000, 'the hold');
    await publishFlow(t, flow, held('payment'));

    // Without the mapping the held node has no counterpart; with it the order moves.
    const refused = (await migrate(flow, { fromVersion: 1, dryRun: true })).body;
    expect(refused.refused).toEqual([{ orderId: id, reason: 'Node "charge" has no counterpart of type http.call in version 2 (a node of that id is not in it)' }]);
    await moveAll(flow, { fromVersion: 1, mapping: { charge: 'payment' } });
    const moved = await live(id);
    expect(moved.holds).toEqual([expect.objectContaining({ nodeId: 'payment' })]);
    expect(moved.nodes.payment).toMatchObject({ status: 'failed', attempt: 2 });

    down = false;
    expect((await t.call('POST', `/api/v1/orders/${id}/holds/payment`, { action: 'retry' })).status).toBe(200);
    await settled(id, 'completed');
    const keys = rx.on(path).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('refuses, naming the node: a waiting node with no counterpart of its type, a completed step with none, a running order', async () => {
    const flow = `mig-refuse-${++flows}`;
    const path = `/hang-${flows}`;
    rx.script(path, () => 'hang');
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    const waiting = await start(flow);
    const runningFlow = `mig-running-${flows}`;
    await publishFlow(t, runningFlow, { nodes: [n('start', 'trigger.api'), n('call', 'http.call', { url: `${rx.url}${path}` }), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'call'), e('call', 'done')] });
    const running = await start(runningFlow);
    await eventually(async () => rx.on(path).length > 0, 10_000, 'the call out');
    await publishFlow(t, runningFlow, { nodes: [n('start', 'trigger.api'), n('call', 'http.call', { url: `${rx.url}${path}` }), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'call'), e('call', 'done')] });
    expect((await migrate(runningFlow, { fromVersion: 1, dryRun: true })).body.refused).toEqual([{ orderId: running, reason: 'Order is running (at node "call"): only orders at rest move' }]);

    // Version 2 turns the approval into an event wait; version 3 drops s2 (completed before the wait).
    await publishFlow(t, flow, graph({ ...eventWait, id: 'review' }, EVENT_BRANCHES));
    const noS2 = graph(approval, APPROVAL_BRANCHES);
    await publishFlow(t, flow, { nodes: noS2.nodes.filter((x) => x.id !== 's2'), edges: [...noS2.edges.filter((x) => x.from !== 's2' && x.to !== 's2'), e('s1', 'review')] });
    const from = 1;
    expect((await migrate(flow, { fromVersion: from, toVersion: from + 1, dryRun: true })).body.refused).toEqual([
      { orderId: waiting, reason: `Node "review" has no counterpart of type human.approval in version ${from + 1} (a node of that id is of type wait.event)` },
    ]);
    expect((await migrate(flow, { fromVersion: from, toVersion: from + 2, dryRun: true })).body.refused).toEqual([
      { orderId: waiting, reason: `Node "s2" has no counterpart of type test.effect in version ${from + 2} (a node of that id is not in it)` },
    ]);
    // A move of refused orders starts an empty batch: nothing moves.
    const res = await migrate(flow, { fromVersion: from, toVersion: from + 2 });
    expect(res.status).toBe(202);
    expect(res.body.batch).toMatchObject({ operation: 'migrate', total: 0, state: 'completed' });
    expect((await live(waiting)).order.flowVersion).toBe(from);
    rx.release(path, 200, {});
  });

  it('bad requests: 404 unknown flow, 400 for an unpublished version, a version of another flow, the same version, a mapping to no node, a viewer 403, nothing changing; a migrate batch skips an order that cannot move, with the reason', async () => {
    const flow = `mig-bad-${++flows}`;
    const other = `mig-other-${flows}`;
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    await publishFlow(t, other, graph(approval, APPROVAL_BRANCHES));
    await publishFlow(t, other, graph(approval, APPROVAL_BRANCHES));
    const id = await start(flow);
    expect((await migrate('mig-nowhere', { fromVersion: 1 })).status).toBe(404);
    const unpublished = await migrate(flow, { fromVersion: 1, toVersion: 2 });
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.issues).toEqual([{ path: 'toVersion', message: `Flow ${flow} has no published version 2` }]);
    // Version 2 exists, but of the other flow.
    expect((await migrate(flow, { fromVersion: 2, toVersion: 1 })).body.issues).toEqual([{ path: 'fromVersion', message: `Flow ${flow} has no published version 2` }]);
    expect((await migrate(flow, { fromVersion: 1 })).status).toBe(400);
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    const badMap = await migrate(flow, { fromVersion: 1, mapping: { review: 'nowhere' } });
    expect(badMap.status).toBe(400);
    expect(badMap.body.issues).toEqual([{ path: 'mapping.review', message: 'Version 2 has no node "nowhere"' }]);
    expect((await migrate(flow, { fromVersion: 1, mapping: { 'Not An Id': 'review' } })).status).toBe(400);
    expect((await migrate(flow, { fromVersion: 'one' })).status).toBe(400);
    const viewer = await tokenFor(t, 'viewer');
    expect((await migrate(flow, { fromVersion: 1, dryRun: true }, { token: viewer })).status).toBe(403);
    // The batch route: migrate's input takes no orderIds nor dryRun, and checks its flow and versions at start.
    const batch = (input: Record<string, unknown>) => t.call('POST', '/api/v1/batches', { operation: 'migrate', orderIds: [id], input });
    const inInput = await batch({ flowId: flow, fromVersion: 1, orderIds: [id] });
    expect(inInput.status).toBe(400);
    expect(JSON.stringify(inInput.body.issues)).toContain('orderIds');
    expect((await batch({ flowId: flow, fromVersion: 1, dryRun: true })).status).toBe(400);
    expect((await batch({ flowId: flow, fromVersion: 7 })).status).toBe(400);
    expect((await batch({ flowId: 'mig-nowhere', fromVersion: 1 })).status).toBe(404);
    expect((await live(id)).order.flowVersion).toBe(1);
    expect((await t.service.ctx.db.query("SELECT count(*)::int AS n FROM batches WHERE input->>'flowId' = $1", [flow])).rows[0].n).toBe(0);

    // The batch route with a valid input moves the listed orders (toVersion fixed at start to the latest); one that
    // cannot move when its turn comes is skipped with the reason.
    const ended = await start(flow);
    expect((await t.call('POST', `/api/v1/orders/${ended}/cancel`, {})).status).toBe(200);
    const ok = await t.call('POST', '/api/v1/batches', { operation: 'migrate', orderIds: [id, ended], input: { flowId: flow, fromVersion: 1 } });
    expect(ok.status, ok.text).toBe(202);
    expect((await t.service.ctx.db.query('SELECT input FROM batches WHERE id = $1', [ok.body.batch.id])).rows[0].input).toEqual({ flowId: flow, fromVersion: 1, toVersion: 2, mapping: {} });
    const finished = await eventually(async () => {
      const got = (await t.call('GET', `/api/v1/batches/${ok.body.batch.id}`)).body;
      return got.batch.state === 'completed' ? got : null;
    }, 10_000, 'the batch');
    expect(finished.batch).toMatchObject({ done: 1, skipped: 1, failed: 0 });
    expect(finished.results).toContainEqual({ orderId: ended, outcome: 'skipped', error: 'Order is cancelled: only waiting orders move' });
    expect((await live(id)).order.flowVersion).toBe(2);
  });

  it('the tool migrate_orders (MCP, operator only): the dry run and the move through the same operation', async () => {
    const flow = `mig-tool-${++flows}`;
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES));
    const id = await start(flow);
    await publishFlow(t, flow, graph(approval, APPROVAL_BRANCHES, { added: true }));
    const clientAs = async (token: string) => {
      const client = new Client({ name: 'mig-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return client;
    };
    const viewer = await clientAs(await tokenFor(t, 'viewer'));
    expect((await viewer.listTools()).tools.map((x) => x.name)).not.toContain('migrate_orders');
    const operator = await clientAs(await tokenFor(t, 'operator'));
    const tool = (await operator.listTools()).tools.find((x) => x.name === 'migrate_orders')!;
    expect(tool.annotations?.readOnlyHint).toBe(false);
    const dry = await operator.callTool({ name: 'migrate_orders', arguments: { flowId: flow, fromVersion: 1, dryRun: true } });
    expect(dry.isError).toBeFalsy();
    expect(dry.structuredContent).toEqual({ fromVersion: 1, toVersion: 2, movableCount: 1, refusedCount: 0, movable: [id], refused: [] });
    expect((dry.content as { text: string }[])[0]!.text).toBe('1 order(s) can move from version 1 to 2; 0 cannot.');
    const moved = await operator.callTool({ name: 'migrate_orders', arguments: { flowId: flow, fromVersion: 1 } });
    expect((moved.structuredContent as { batch: { operation: string; total: number } }).batch).toMatchObject({ operation: 'migrate', total: 1 });
    await eventually(async () => (await live(id)).order.flowVersion === 2, 10_000, 'the move');
  });
});
