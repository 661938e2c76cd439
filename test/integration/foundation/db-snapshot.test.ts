// Db.snapshot: reads that must agree see one snapshot, as the order live state's do (a commit between them is seen by none).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.query('CREATE TABLE snap_probe (id int PRIMARY KEY, v text)');
  await t.db.query("INSERT INTO snap_probe VALUES (1, 'before')");
});
afterAll(async () => {
  await t?.drop();
});

it('a commit between two reads of a snapshot is seen by neither; a plain pool read after it sees it', async () => {
  const seen = await t.db.snapshot(async (q) => {
    const first = (await q.query<{ v: string }>('SELECT v FROM snap_probe WHERE id = 1')).rows[0]!.v;
    await t.db.query("UPDATE snap_probe SET v = 'after' WHERE id = 1"); // another connection commits
    const second = (await q.query<{ v: string }>('SELECT v FROM snap_probe WHERE id = 1')).rows[0]!.v;
    return [first, second];
  });
  expect(seen).toEqual(['before', 'before']);
  expect((await t.db.query<{ v: string }>('SELECT v FROM snap_probe WHERE id = 1')).rows[0]!.v).toBe('after');
});

it('a snapshot is read-only: a write in it fails and changes nothing', async () => {
  await expect(t.db.snapshot((q) => q.query("UPDATE snap_probe SET v = 'x' WHERE id = 1"))).rejects.toThrow(/read-only/);
  expect((await t.db.query<{ v: string }>('SELECT v FROM snap_probe WHERE id = 1')).rows[0]!.v).toBe('after');
});
