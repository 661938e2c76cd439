// Migrations 0018-0019 move an existing order's node records and timeline into the folded layout unchanged.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Db } from '../../../src/db/db.js';
import { migrate, migrationsDir } from '../../../src/db/migrate.js';
import { systemClock } from '../../../src/platform/clock.js';
import { loadNodeRecords, nodeMapJson } from '../../../src/engine/runtime/node-record.js';
import { readTimeline } from '../../../src/engine/runtime/timeline.js';
import { adminQuery, databaseUrl } from '../../support/test-db.js';

const name = `oo_t_fold_${Math.random().toString(36).slice(2, 10)}`;
let db: Db;
let before: string;

beforeAll(async () => {
  await adminQuery(`CREATE DATABASE ${name}`);
  db = new Db(databaseUrl(inject('pgAdminUrl'), name), 2);
  // The schema as it stood before the fold: the migrations up to 0017 only.
  before = mkdtempSync(path.join(os.tmpdir(), 'oo-migrations-'));
  for (const f of readdirSync(migrationsDir).filter((f) => /^\d{4}_/.test(f) && Number(f.slice(0, 4)) <= 17)) cpSync(path.join(migrationsDir, f), path.join(before, f));
  await migrate(db, systemClock, before);
});

afterAll(async () => {
  await db.close();
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  rmSync(before, { recursive: true, force: true });
});

describe('storage layout migration (issue 19: node records in the orders row, the timeline in chunks)', () => {
  it('keeps every node record field, null or not, and every timeline entry in its order', async () => {
    await db.query(
      `INSERT INTO orders (id, flow_id, flow_version, model, channel, currency, fx_rate, input, status, instance_id, compiler_version, created_at, updated_at)
       VALUES ('ord_old', 'f', 1, 'b2c', 'api', 'USD', 1, '{}', 'waiting', 'i1', 1, 1, 1)`,
    );
    await db.query(
      `INSERT INTO order_nodes (order_id, node_id, status, runs, attempt, summary, output, error, branches, done_seq, started_at, ended_at) VALUES
         ('ord_old', 'price', 'succeeded', 1, 1, 'Priced', '{"total": 10, "reason": null}', NULL, '{ok}', 1, 100, 105),
         ('ord_old', 'wait', 'waiting', 2, 0, NULL, NULL, 'late', '{}', NULL, 106, NULL)`,
    );
    await db.query(
      `INSERT INTO order_timeline (order_id, at, kind, message, node_id, data) VALUES
         ('ord_old', 100, 'order.started', 'Order started', NULL, NULL),
         ('ord_old', 105, 'node.succeeded', 'Priced', 'price', '{"branch": "ok"}'),
         ('ord_old', 106, 'wait.opened', 'Waiting', 'wait', '{"kind": "event"}')`,
    );
    const nodesBefore = await loadRows();
    await migrate(db, systemClock);

    expect(await loadRows()).toEqual(nodesBefore);
    const records = await loadNodeRecords(db, 'ord_old');
    expect(records.get('price')).toEqual({
      nodeId: 'price', status: 'succeeded', runs: 1, attempt: 1, summary: 'Priced', output: { total: 10, reason: null },
      error: null, branches: ['ok'], doneSeq: 1, startedAt: 100, endedAt: 105, holds: 0,
    });
    expect(records.get('wait')).toEqual({
      nodeId: 'wait', status: 'waiting', runs: 2, attempt: 0, summary: null, output: null, error: 'late', branches: [], doneSeq: null, startedAt: 106, endedAt: null, holds: 0,
    });
    expect(await readTimeline(db, 'ord_old')).toEqual([
      { at: 100, kind: 'order.started', message: 'Order started', nodeId: null, data: null },
      { at: 105, kind: 'node.succeeded', message: 'Priced', nodeId: 'price', data: { branch: 'ok' } },
      { at: 106, kind: 'wait.opened', message: 'Waiting', nodeId: 'wait', data: { kind: 'event' } },
    ]);
    // Entries appended after the migration follow the migrated ones, and the limit keeps the newest.
    await db.query(`INSERT INTO order_timeline_chunks (order_id, entries) VALUES ('ord_old', '[{"at": 107, "kind": "event.received", "message": "Got it"}]')`);
    expect((await readTimeline(db, 'ord_old', 2)).map((e) => e.at)).toEqual([106, 107]);
    const { rows } = await db.query("SELECT kind FROM order_timeline WHERE order_id = 'ord_old' ORDER BY chunk_id, pos");
    expect(rows.map((r) => r.kind)).toEqual(['order.started', 'node.succeeded', 'wait.opened', 'event.received']);
  });

  it('migration 0026: the records written packed read the same through the code and the order_nodes view', async () => {
    const named = await loadRows();
    const records = await loadNodeRecords(db, 'ord_old');
    await db.query("UPDATE orders SET nodes = $1 WHERE id = 'ord_old'", [JSON.stringify(nodeMapJson(records.values()))]);
    const { rows } = await db.query<{ price: unknown }>("SELECT nodes -> 'price' AS price FROM orders WHERE id = 'ord_old'");
    expect(Array.isArray(rows[0]!.price)).toBe(true);
    expect(await loadNodeRecords(db, 'ord_old')).toEqual(records);
    expect(await loadRows()).toEqual(named);
  });
});

/** The node records as the `order_nodes` table (before) and view (after) show them. */
async function loadRows(): Promise<unknown[]> {
  const { rows } = await db.query(
    "SELECT node_id, status, runs, attempt, summary, output, error, branches, done_seq, started_at, ended_at FROM order_nodes WHERE order_id = 'ord_old' ORDER BY node_id",
  );
  return rows;
}
