// A burst of A2A place_order calls larger than the database pool (review 2, M-2): every call answers with a task,
// every order started is reported by its task, and a task that failed started no order.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { placeOrder, rpc, startA2aService, tokenFor } from './a2a-support.js';
import { placeOrderKey } from '../../../src/a2a/a2a-placed-orders.js';

let t: TestService;
beforeAll(async () => {
  t = await startA2aService({ start: { a2a: { followMs: 2_000 } } });
});
afterAll(async () => {
  await t?.close();
});

/** More parallel calls than the pool's 20 connections, as the review's probe sent. */
const BURST = 60;

/** The order a raw 1.0 task reports: its place_order artifact's orderId. */
function orderIdOf(task: any): string | null {
  const artifact = (task?.artifacts ?? []).find((a: any) => a.name === 'place_order');
  return artifact?.parts?.[0]?.data?.orderId ?? null;
}

function statusTextOf(task: any): string {
  return (task?.status?.message?.parts ?? []).map((p: any) => p.text ?? '').join('');
}

describe('a place_order burst larger than the pool', () => {
  it('every call answers with a task (no JSON-RPC error); orders started equal tasks reporting one; a failed task started none; viewers are not refused', async () => {
    const operator = await tokenFor(t, 'operator');
    const viewer = await tokenFor(t, 'viewer');
    const run = randomUUID().slice(0, 8);
    const title = (i: number) => `burst-${run}-${i}`;
    let bursting = true;
    const viewerStatuses: number[] = [];
    const viewing = (async () => {
      // A viewer reads the order list while the burst runs (bounded: at most 200 reads).
      for (let i = 0; bursting && i < 200; i++) viewerStatuses.push((await t.call('GET', '/api/v1/orders?limit=5', undefined, { token: viewer })).status);
    })();
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        rpc(
          t,
          'SendMessage',
          { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { skill: 'place_order', input: { flowId: 'done-flow', input: { model: 'b2c', title: title(i), lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } } } }] } },
          { version: '1.0', token: operator, id: i },
        ),
      ),
    );
    bursting = false;
    await viewing;

    expect(answers.map((a) => a.body?.error?.code ?? null).filter((c) => c !== null)).toEqual([]);
    expect(answers.every((a) => a.status === 200 && a.body.result?.task)).toBe(true);
    const tasks = answers.map((a) => a.body.result.task);
    const reported = tasks.map(orderIdOf);
    for (const [i, task] of tasks.entries()) {
      if (reported[i]) expect(['TASK_STATE_COMPLETED', 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']).toContain(task.status.state);
      else {
        expect(task.status.state).toBe('TASK_STATE_FAILED');
        expect(statusTextOf(task)).toContain('started no order');
      }
    }
    const { rows } = await t.service.ctx.db.query<{ id: string; title: string }>('SELECT id, title FROM orders WHERE title LIKE $1', [`burst-${run}-%`]);
    // Each order started is the one its own task reports, and a failed task's order does not exist.
    expect(rows.map((r) => r.id).sort()).toEqual(reported.filter((id): id is string => id !== null).sort());
    for (const r of rows) expect(reported[Number(r.title.slice(`burst-${run}-`.length))]).toBe(r.id);
    expect(reported.filter((id) => id !== null).length).toBeGreaterThan(0);
    expect(viewerStatuses.filter((s) => s !== 200)).toEqual([]);
  });
});

describe('place_order start slots all taken', () => {
  let s: TestService;
  beforeAll(async () => {
    s = await startA2aService({ start: { a2a: { followMs: 2_000, placeSlots: 1, placeWaitMs: 200 } } });
  });
  afterAll(async () => {
    await s?.close();
  });

  const send = (request: Record<string, unknown>, messageId: string) =>
    rpc(s, 'SendMessage', { message: { messageId, role: 'ROLE_USER', parts: [{ data: request }] } }, { version: '1.0' });

  it('a request finding every start slot taken past its wait ends FAILED saying it started no order, and starts none; the start holding the slot completes', async () => {
    const heldId = randomUUID();
    const held = placeOrder('done-flow');
    // The one slot is held by a start that waits on its key: the test's own open transaction has claimed it.
    const blocker = await s.service.ctx.db.pool.connect();
    let first: Promise<Awaited<ReturnType<typeof send>>> | undefined;
    try {
      await blocker.query('BEGIN');
      await blocker.query("INSERT INTO idempotency_keys (scope, key, fingerprint, order_id, created_at) VALUES ('agents.place_order', $1, 'held', 'ord_held', 0)", [placeOrderKey('workspace', heldId)]);
      first = send(held, heldId);
      let waits = false;
      for (let i = 0; i < 400 && !waits; i++) {
        const { rows } = await s.service.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO idempotency_keys%'");
        waits = rows[0].n > 0;
        if (!waits) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waits).toBe(true);
      const refused = placeOrder('done-flow');
      const refusedId = randomUUID();
      const answer = await send(refused, refusedId);
      expect(answer.body.error).toBeUndefined();
      expect(answer.body.result.task.status.state).toBe('TASK_STATE_FAILED');
      expect(statusTextOf(answer.body.result.task)).toMatch(/started no order\. Send the same message again \(same messageId\)/);
      expect(orderIdOf(answer.body.result.task)).toBeNull();
      const none = await s.service.ctx.db.query('SELECT 1 FROM orders WHERE title = $1', [(refused.input as any).input.title]);
      expect(none.rowCount).toBe(0);
      // The same message sent again once the slot is free starts its order.
      await blocker.query('ROLLBACK');
      const done = (await first).body.result.task;
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      const retried = (await send(refused, refusedId)).body.result.task;
      expect(retried.status.state).toBe('TASK_STATE_COMPLETED');
      const { rows } = await s.service.ctx.db.query<{ id: string }>('SELECT id FROM orders WHERE title = ANY($1::text[]) ORDER BY id', [[(held.input as any).input.title, (refused.input as any).input.title]]);
      expect(rows.map((r) => r.id).sort()).toEqual([orderIdOf(done), orderIdOf(retried)].sort());
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      blocker.release();
      await first?.catch(() => undefined);
    }
  });
});
