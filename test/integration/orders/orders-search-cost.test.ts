// Security review M3: a short `q` is a prefix search and a list page reads about one page of orders, not every match
// (docs/api.md "Search `q`"; spec "List orders": limit 1 to 200).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, TestService } from '../../support/test-service.js';
import { listSql } from '../../../src/orders/order-list.js';
import { detectSearchMode, type SearchMode } from '../../../src/orders/order-search.js';
import { e, n, publishFlow, startBody, startOrdersService } from './orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'instant', { nodes: [n('start', 'trigger.api'), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'done')] });
});
afterAll(async () => {
  await t?.close();
});

const start = async (input: Record<string, unknown>) => {
  const res = await t.call('POST', '/api/v1/orders', startBody('instant', input));
  if (res.status !== 201) throw new Error(res.text);
  return res.body.orderId as string;
};
const ids = async (query: string): Promise<string[]> => {
  const res = await t.call('GET', `/api/v1/orders${query}`);
  expect(res.status, query).toBe(200);
  return res.body.orders.map((o: { id: string }) => o.id);
};

describe('short needles are prefix searches (docs/api.md: a q without three letters or digits in a row)', () => {
  let widgets: string;
  let ultra: string;
  beforeAll(async () => {
    widgets = await start({ title: 'Blue Widgets PO', customerId: 'cust_globex', externalId: 'ACME:PO-9981', contact: { email: 'Buyer.One@Example.com' } });
    ultra = await start({ title: 'Ultra Blue', customerId: 'cust_initech', externalId: 'INI-77' });
  });

  it('a 1 or 2 character q matches the start of a field, case-insensitively', async () => {
    expect(await ids('?q=bl')).toEqual([widgets]); // title "Blue Widgets PO", not "Ultra Blue"
    expect(await ids('?q=UL')).toEqual([ultra]);
    expect(await ids('?q=bu')).toEqual([widgets]); // contact email
    expect(await ids('?q=a')).toEqual([widgets]); // external id ACME:…
    expect(await ids('?q=in')).toEqual([ultra]); // external id INI-77
  });

  it('a short q inside a field no longer matches (it did as a substring)', async () => {
    for (const q of ['ue', 'po', 'gl', 'on', '99', 'e'])
      expect(await ids(`?q=${q}`), q).toEqual([]);
  });

  it('three characters without three letters or digits in a row are a prefix search too; LIKE wildcards stay literal', async () => {
    expect(await ids(`?q=${encodeURIComponent('a:p')}`)).toEqual([]); // inside "acme:po-9981", not at its start
    expect(await ids(`?q=${encodeURIComponent('acme:')}`)).toEqual([widgets]); // "acme" is a trigram: substring
    for (const q of ['%', '_', '___', '-', '%%%']) expect(await ids(`?q=${encodeURIComponent(q)}`), q).toEqual([]);
  });

  it('three letters or digits in a row keep the substring search', async () => {
    expect(await ids('?q=glo')).toEqual([widgets]);
    expect(await ids('?q=-9981')).toEqual([widgets]); // '-' keeps random hex order ids out of the match
    expect(await ids('?q=tra')).toEqual([ultra]);
    expect((await ids('?q=blue')).sort()).toEqual([widgets, ultra].sort());
  });
});

/** Rows PostgreSQL read from `orders` (returned, filtered out, or rechecked) in an EXPLAIN ANALYZE JSON plan. */
function ordersRowsRead(plan: Record<string, any>): number {
  const own =
    plan['Relation Name'] === 'orders'
      ? (plan['Actual Rows'] + (plan['Rows Removed by Filter'] ?? 0) + (plan['Rows Removed by Index Recheck'] ?? 0)) * plan['Actual Loops']
      : 0;
  return own + ((plan.Plans as Record<string, any>[] | undefined) ?? []).reduce((sum, p) => sum + ordersRowsRead(p), 0);
}

describe('a page reads about one page of orders, whatever the needle (LIMIT inside the fence)', () => {
  const BULK = 30_000;
  let mode: SearchMode;
  beforeAll(async () => {
    const db = t.service.ctx.db;
    await db.query(
      `INSERT INTO orders (id, flow_id, flow_version, model, channel, external_id, title, customer_id, contact_email, currency, fx_rate,
         input, status, instance_id, compiler_version, created_at, updated_at)
       SELECT 'ord_cost' || lpad(g::text, 8, '0'), 'instant', 1, 'b2b', 'web', 'EXT-' || g, 'Bulk order ' || md5(g::text),
         'cust_' || (g % 500), 'buyer' || g || '@example.com', 'USD', 1, '{}', 'completed', 'inst', 1, 1700000000000 + g, 1700000000000 + g
       FROM generate_series(1, $1::int) g`,
      [BULK],
    );
    await db.query('ANALYZE orders');
    mode = await detectSearchMode(db);
  }, 120_000);

  it(`a common or short q at ${BULK} orders reads at most a few pages of rows, not every match`, async () => {
    // Every one of these matches all bulk orders; before, each read and sorted all of them.
    for (const q of ['b', 'bu', 'B', '_', 'ex', 'exa', 'example.com', 'bulk order', 'buyer', 'cust_'])
      for (const limit of [50, 200]) {
        const { text, params } = listSql({ q }, mode, null, limit);
        const [{ 'QUERY PLAN': [explained] }] = (await t.service.ctx.db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)).rows;
        const read = ordersRowsRead(explained.Plan);
        expect(read, `q=${q} limit=${limit}: read ${read} rows\n${JSON.stringify(explained.Plan, null, 1)}`).toBeLessThanOrEqual(4 * (limit + 1));
      }
  });

  it('a rare q is still served by the search indexes and reads only its few matches', async () => {
    for (const q of ['ext-29999', 'buyer12345@', 'ord_cost00012345', 'zz', '9']) {
      const { text, params } = listSql({ q }, mode, null, 50);
      const [{ 'QUERY PLAN': [explained] }] = (await t.service.ctx.db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)).rows;
      expect(ordersRowsRead(explained.Plan), q).toBeLessThanOrEqual(1000);
      expect(JSON.stringify(explained.Plan), q).toMatch(/orders_search_/);
    }
  });

  it('pages and cursors are unchanged: newest first, each match exactly once', async () => {
    const reference = (
      await t.service.ctx.db.query<{ id: string }>(
        `SELECT id FROM orders WHERE lower(title) LIKE 'bu%' OR lower(contact_email) LIKE 'bu%' ORDER BY created_at DESC, id DESC LIMIT 450`,
      )
    ).rows.map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const res: ApiResponse = await t.call('GET', `/api/v1/orders?q=bu&limit=150${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.orders.map((o: { id: string }) => o.id));
      cursor = res.body.nextCursor;
      expect(cursor).not.toBeNull();
    }
    expect(seen).toEqual(reference);
  });
});
