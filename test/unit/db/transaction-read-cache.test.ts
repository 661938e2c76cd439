// The per-slice read cache (docs/performance.md "Optimisations"): repeated reads are served once; the writers that say so, and rollbacks, drop them.
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/db/db.js';
import { attachReadCache, cachedRows, forgetRows, seedRead, TransactionReadCache, writeThrough } from '../../../src/db/transaction-read-cache.js';

/** A fake client counting queries, with the cache attached as a slice store's clients have it. */
function fakeClient(cache?: TransactionReadCache) {
  const calls: string[] = [];
  const client = {
    calls,
    async query(text: string, values: unknown[] = []) {
      calls.push(text);
      return { rows: [{ text, values, nested: { n: calls.length } }] };
    },
  };
  if (cache) attachReadCache(client, cache);
  return client as unknown as Queryable & { calls: string[] };
}

const LINES = 'SELECT * FROM order_lines WHERE order_id = $1 ORDER BY line_no';
const WORKSPACE = 'SELECT tax_rate FROM workspace WHERE id = 1';

describe('TransactionReadCache', () => {
  it('answers a repeated read with the same parameters from memory; other parameters are read', async () => {
    const q = fakeClient(new TransactionReadCache());
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    await cachedRows(q, 'order_lines', LINES, ['o2']);
    expect(q.calls).toEqual([LINES, LINES]);
  });

  it('forgetRows (a repository that wrote the table says so) drops what was read of it, and only of it', async () => {
    const q = fakeClient(new TransactionReadCache());
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    await cachedRows(q, 'workspace', WORKSPACE, []);
    await q.query('UPDATE order_lines SET seller_id = $3 WHERE order_id = $1 AND line_no = $2', ['o1', 1, 's']);
    forgetRows(q, 'order_lines');
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    await cachedRows(q, 'workspace', WORKSPACE, []);
    expect(q.calls.filter((t) => t === LINES)).toHaveLength(2);
    expect(q.calls.filter((t) => t === WORKSPACE)).toHaveLength(1);
  });

  it('a write-through keeps the table’s cached rows, changed by its patch', async () => {
    const q = fakeClient(new TransactionReadCache());
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    const UPDATE = 'UPDATE order_lines SET seller_id = $2 WHERE order_id = $1';
    await writeThrough(q, 'order_lines', UPDATE, ['o1', 's'], (row) => void (row.patched = true));
    const [row] = await cachedRows(q, 'order_lines', LINES, ['o1']);
    expect(row.patched).toBe(true);
    expect(q.calls).toEqual([LINES, UPDATE]);
  });

  it('a seeded read is answered without a statement', async () => {
    const q = fakeClient(new TransactionReadCache());
    seedRead(q, { table: 'workspace', text: WORKSPACE, values: [], rows: [{ tax_rate: '0.08' }] });
    expect(await cachedRows(q, 'workspace', WORKSPACE, [])).toEqual([{ tax_rate: '0.08' }]);
    expect(q.calls).toEqual([]);
  });

  it('clear() (a rolled-back step) empties it', async () => {
    const cache = new TransactionReadCache();
    const q = fakeClient(cache);
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    cache.clear();
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    expect(q.calls).toHaveLength(2);
  });

  it('a caller changing the rows it got cannot change what the next reader gets', async () => {
    const q = fakeClient(new TransactionReadCache());
    const first = await cachedRows<{ nested: { n: number } }>(q, 'order_lines', LINES, ['o1']);
    first[0].nested.n = 99;
    const second = await cachedRows<{ nested: { n: number } }>(q, 'order_lines', LINES, ['o1']);
    expect(second[0].nested.n).toBe(1);
  });

  it('outside a slice (a client with no cache) every read goes to the database', async () => {
    const q = fakeClient();
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    await cachedRows(q, 'order_lines', LINES, ['o1']);
    expect(q.calls).toHaveLength(2);
  });
});
