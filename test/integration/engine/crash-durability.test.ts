// Crash durability with the real service as a child process: SIGKILL between a slice's effects and its
// commit loses nothing and duplicates nothing; a timer due while the process is down fires after restart
// (issue "Flow engine": durability).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEngineHarness, e, n } from '../../support/engine-harness.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';
import { killGroup, startChild, type ChildService } from '../../support/child-service.js';
import { outboxId } from '../../../src/engine/runtime/outbox.js';

const PASSWORD = 'crash-test-password-123';
const HOUR = 3_600_000;
let database: TestDatabase | null = null;
const children: ChildService[] = [];
afterAll(async () => {
  for (const c of children) killGroup(c, 'SIGKILL');
  await database?.drop();
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('crash durability (child process)', () => {
  it('SIGKILL while a slice waits to commit: nothing of it is kept; after restart the late timer fires once', async () => {
    database = await createTestDatabase();
    // Set up with the engine in-process: a flow and an order waiting on a 1 h timeout.
    const h = await startEngineHarness({ database, redis: false });
    const version = await h.publish('crash-flow', {
      nodes: [n('start', 'trigger.api'), n('wait', 'wait.event', { event: 'go', timeout: '1h' }), n('ok', 'end', { outcome: 'completed' }), n('late', 'end', { outcome: 'cancelled', reason: 'timed out' })],
      edges: [e('start', 'wait'), e('wait', 'ok', 'received'), e('wait', 'late', 'timeout')],
    });
    const orderId = await h.startOrder('crash-flow', version);
    await h.close();

    const env = { PORT: '0', DATABASE_URL: database.url, REDIS_URL: undefined, TEST_CLOCK: '1', WORKSPACE_PASSWORD: PASSWORD, LOG_LEVEL: 'info' };
    const first = startChild(env);
    children.push(first);
    const url = await first.ready;

    // Hold the outbox id the timeout slice will write, in an open transaction: its INSERT must wait for us,
    // after the slice already resolved the wait, ran the End node and wrote timeline and node rows.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    await blocker.query('BEGIN');
    const id = outboxId(orderId, 1, { event: 'order.cancelled', nodeId: 'late', run: 1 });
    await blocker.query("INSERT INTO outbox (id, order_id, event, occurred_at, data, created_at) VALUES ($1, $2, 'blocker', 0, '{}', 0)", [id, orderId]);

    const advancing = fetch(`${url}/api/v1/test/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PASSWORD}`, 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: HOUR + 1000 }),
    }).catch(() => null);
    await until(async () => {
      // Polled from another connection: statistics views are frozen for the length of a transaction.
      // The slice writes everything in one statement (slice-write.ts) whose first part is the outbox insert.
      const { rows } = await watcher.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO outbox%'",
      );
      return rows[0].n > 0;
    });
    process.kill(first.servicePid()!, 'SIGKILL');
    await first.exited;
    await advancing;
    await blocker.query('ROLLBACK');
    await blocker.end();
    await watcher.end();

    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      // Nothing of the killed slice was committed.
      const o1 = await db.query('SELECT status FROM orders WHERE id = $1', [orderId]);
      expect(o1.rows[0].status).toBe('waiting');
      const t1 = await db.query("SELECT count(*)::int AS n FROM order_timeline WHERE order_id = $1 AND kind = 'wait.timeout'", [orderId]);
      expect(t1.rows[0].n).toBe(0);
      const timer = await db.query('SELECT fired_at FROM timers WHERE order_id = $1', [orderId]);
      expect(timer.rows[0].fired_at).toBeNull();

      // Restart: the clock offset was kept, the timer is overdue and fires at start, exactly once.
      const second = startChild(env);
      children.push(second);
      await second.ready;
      await until(async () => (await db.query('SELECT status FROM orders WHERE id = $1', [orderId])).rows[0].status === 'cancelled');
      const t2 = await db.query("SELECT count(*)::int AS n FROM order_timeline WHERE order_id = $1 AND kind = 'wait.timeout'", [orderId]);
      expect(t2.rows[0].n).toBe(1);
      const events = await db.query('SELECT id, event FROM outbox WHERE order_id = $1', [orderId]);
      expect(events.rows).toEqual([{ id, event: 'order.cancelled' }]);
      process.kill(second.servicePid()!, 'SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await db.end();
    }
  }, 120_000);
});
