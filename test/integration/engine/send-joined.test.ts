// A slice's write and COMMIT go in one round trip once the connection prepared the write; the values stored are those bound (sendJoined).
import type { PoolClient } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendJoined, type NamedStatement } from '../../../src/engine/runtime/named-statements.js';
import { parameterLiteral } from '../../../src/engine/runtime/sql-literal.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';
import { recordingClient } from '../../support/recording-client.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.query(`CREATE TABLE wc_probe (id text PRIMARY KEY, label text, n bigint, ok boolean, tags text[], doc jsonb, note text)`);
});
afterAll(async () => {
  await t?.drop();
});

/** The slice's last round trip as StepInvoker.writeAndCommit sends it. */
const writeAndCommit = (client: PoolClient, s: NamedStatement) => sendJoined(client, { statement: s, after: ['COMMIT'] });

const INSERT = `INSERT INTO wc_probe (id, label, n, ok, tags, doc, note) VALUES ($1, $2, $3, $4, $5::text[], $6::jsonb, $7)`;
const statement = (id: string, label: string, tags: (string | null)[], doc: unknown): NamedStatement => ({
  name: 'wc_probe_insert',
  text: INSERT,
  values: [id, label, 1_795_796_811_884, true, tags, JSON.stringify(doc), null],
});


// Strings that a literal must carry unchanged: quotes, backslashes, commas and braces in array elements, unicode.
const LABEL = `it's a \\back\\slash "quoted" {brace} ünïcødé 🛒`;
const TAGS = [`a,b`, `"q"`, `back\\slash`, null, `{x}`, `it's`, ''];
const DOC = { text: `line\nbreak \\ "q" 'single'`, nested: { n: 1.5, list: [null, true] } };

it('the first write on a connection prepares it and commits apart; the next goes as EXECUTE with COMMIT in one message, storing the same values', async () => {
  const { client, sent } = await recordingClient(t.db.pool);
  try {
    await client.query('BEGIN');
    await writeAndCommit(client, statement('first', LABEL, TAGS, DOC));
    await client.query('BEGIN');
    await writeAndCommit(client, statement('second', LABEL, TAGS, DOC));
  } finally {
    client.release();
  }
  expect(sent).toEqual(['BEGIN', INSERT, 'COMMIT', 'BEGIN', expect.stringMatching(/^EXECUTE wc_probe_insert\(.*\); COMMIT$/s)]);
  const { rows } = await t.db.query<Record<string, unknown>>('SELECT * FROM wc_probe ORDER BY id');
  expect(rows).toHaveLength(2);
  const [first, second] = rows;
  expect({ ...second, id: 'first' }).toEqual(first);
  expect(second).toMatchObject({ label: LABEL, n: '1795796811884', ok: true, tags: TAGS, doc: DOC, note: null });
});

it('a write that fails on the one-message path commits nothing and leaves the transaction for the caller to roll back', async () => {
  const { client, sent } = await recordingClient(t.db.pool);
  try {
    await client.query('BEGIN');
    await writeAndCommit(client, statement('warm', 'w', [], {}));
    await client.query('BEGIN');
    await client.query(`INSERT INTO wc_probe (id) VALUES ('earlier-in-the-transaction')`);
    await expect(writeAndCommit(client, statement('warm', 'duplicate key', [], {}))).rejects.toMatchObject({ code: '23505' });
    expect(sent.at(-1)).toMatch(/^EXECUTE .*; COMMIT$/s);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
  const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM wc_probe WHERE id IN ('warm', 'earlier-in-the-transaction')`);
  expect(rows.map((r) => r.id)).toEqual(['warm']);
});

it('parameters the driver would not send as text (binary data, dates, objects) are not written as literals; arrays read back as sent', async () => {
  expect(parameterLiteral(Buffer.from('x'))).toBeNull();
  expect(parameterLiteral(new Date(0))).toBeNull();
  expect(parameterLiteral({ a: 1 })).toBeNull();
  expect(parameterLiteral(Number.NaN)).toBeNull();
  expect(parameterLiteral([{ a: 1 }])).toBeNull();
  expect(parameterLiteral(null)).toBe('NULL');
  expect(parameterLiteral(42)).toBe(`'42'`);
  const { rows } = await t.db.query<{ tags: unknown }>(`SELECT ${parameterLiteral(TAGS)}::text[] AS tags`);
  expect(rows[0].tags).toEqual(TAGS);
});
