// POST /api/v1/channels/edi/850: every shared X12 file's outcome, field-level mapping of each 850 into an order, replays,
// partner list, envelope checks on synthetic interchanges, roles, media types and the 5 MiB cap
// (spec "EDI 850 adapter", "Limits", "Errors"; contract section 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { envelope, interchange, isaHeader, po850, transaction, x12Fixture } from '../../unit/channels/channel-fixtures.js';
import { X12_LIMITS } from '../../../src/channels/x12/x12-tokenizer.js';
import { count, graphs, startChannelsService } from './channels-support.js';

const EDI = '/api/v1/channels/edi/850';
const NO_SKU = /has none of the product id qualifiers VP, SK, BP, IN/;
/** A partner of the demo workspace (-> cust_corp) for synthetic interchanges. */
const sender = 'ACMEBUYER';

let t: TestService;
/** The service's log records, to show that hostile input logs nothing at error level. */
const logs: Record<string, unknown>[] = [];
/** Records at error level or above (pino: error 50, fatal 60). */
const errorRecords = () => logs.filter((r) => typeof r.level === 'number' && r.level >= 50);
beforeAll(async () => {
  // The demo workspace: its EDI partner list names the senders of the shared files (and ACMEBUYER -> cust_corp).
  t = await startChannelsService({}, { logRecords: logs });
});
afterAll(async () => {
  await t?.close();
});

function postEdi(body: string | Uint8Array, o: { type?: string; token?: string | null } = {}) {
  return t.call('POST', EDI, undefined, { token: o.token, raw: Buffer.from(body), headers: { 'content-type': o.type ?? 'application/edi-x12' } });
}

const view = async (orderId: string) => (await t.call('GET', `/api/v1/orders/${orderId}`)).body;

interface Expected {
  control: string;
  poNumber: string;
  customerId: string;
  currency: string;
  lines: unknown[];
  shipTo?: unknown;
  edi: Record<string, string>;
}

/** Checks one started 850 field by field against the spec's mapping table. */
async function expectOrder(result: Record<string, unknown>, sender: string, x: Expected): Promise<void> {
  expect(result).toEqual({ control: x.control, poNumber: x.poNumber, status: 201, orderId: expect.stringMatching(/^ord_/), flowId: 'tpl-b2b-order' });
  const { order } = await view(result.orderId as string);
  expect(order).toMatchObject({
    model: 'b2b',
    channel: 'edi',
    externalId: `${sender}:${x.poNumber}`,
    title: `PO ${x.poNumber}`,
    currency: x.currency,
    customerId: x.customerId,
    flowId: 'tpl-b2b-order',
  });
  expect(order.input.lines).toEqual(x.lines);
  expect(order.meta).toEqual({ edi: x.edi, source: 'x12-850', via: 'edi', ...(x.shipTo ? { shipTo: x.shipTo } : {}) });
}

describe('the shared X12 files', () => {
  it('stedi 5010: 200; the 850 -> 201 (SK over VC, qty 0008, N1*ST ship-to, BEG05 date)', async () => {
    const res = await postEdi(x12Fixture('stedi__5010_850_input.edi'));
    expect(res.status).toBe(200);
    expect(res.body.sender).toBe('ANOTHERMERCH');
    expect(res.body.results).toHaveLength(1);
    await expectOrder(res.body.results[0], 'ANOTHERMERCH', {
      control: '000000057',
      poNumber: '365465413',
      customerId: 'cust_edi',
      currency: 'USD',
      lines: [
        { sku: 'ACM/8900-400', name: '400 pound anvil', qty: 8, unitPrice: 400 },
        { sku: 'ACM/1100-001', name: 'Detonator', qty: 4, unitPrice: 125 },
      ],
      shipTo: { name: 'Wile E Coyote', line1: '111 Canyon Court', city: 'Phoenix', region: 'AZ', postalCode: '85001', country: 'US' },
      edi: { sender: 'ANOTHERMERCH', poNumber: '365465413', control: '000000057', date: '2022-08-30' },
    });
  });

  it('node-x12 850_3: 200; 201 (newline terminator, SK among VN/PD/SK, country defaults to US)', async () => {
    const res = await postEdi(x12Fixture('nodex12__850_3.edi'));
    expect(res.status).toBe(200);
    expect(res.body.sender).toBe('0000000000');
    await expectOrder(res.body.results[0], '0000000000', {
      control: '8830',
      poNumber: '----------',
      customerId: 'cust_edi',
      currency: 'USD',
      lines: [{ sku: '000000000001010700', qty: 1, unitPrice: 225 }],
      shipTo: { name: 'PETCO - CORPORATE', line1: '9125 REHCO RD', city: 'SAN DIEGO', region: 'CA', postalCode: '92121', country: 'US' },
      edi: { sender: '0000000000', poNumber: '----------', control: '8830', date: '2016-04-26' },
    });
  });

  it('OopFactory Example1: 200; 201 (BOM, `|` terminator, CUR02, BP SKUs, PID05 names)', async () => {
    const res = await postEdi(x12Fixture('oopfactory__Example1_PGWGlass.txt'), { type: 'text/plain' });
    expect(res.status).toBe(200);
    await expectOrder(res.body.results[0], '828513080', {
      control: '0001',
      poNumber: 'S41000439',
      customerId: 'cust_edi',
      currency: 'USD',
      lines: [
        { sku: '0459001004', name: 'FUSE, BUSSMAN FNA-4/10', qty: 5, unitPrice: 5.09 },
        { sku: '0650002027', name: 'LAMP, MAXLITE 35873, 200W,', qty: 12, unitPrice: 63.11 },
        { sku: '0670104514', name: 'DIN RAIL, 35MM, 3 FT LENGTH,', qty: 2, unitPrice: 8.02 },
        { sku: '0684202074', name: 'SWITCH, PROXIMITY,', qty: 1, unitPrice: 85.25 },
      ],
      shipTo: { line1: 'WORKS 41', line2: '2290 MENELAUS ROAD', city: 'BEREA', region: 'KY', postalCode: '40403', country: 'US' },
      edi: { sender: '828513080', poNumber: 'S41000439', control: '0001', date: '2010-08-10' },
    });
  });

  it('OopFactory Example2: 200; 201 (`~` element separator, CR terminator, BP over MG, unterminated IEA tolerated)', async () => {
    const res = await postEdi(x12Fixture('oopfactory__Example2_Adobe_TLP.txt'), { type: 'text/plain; charset=utf-8' });
    expect(res.status).toBe(200);
    await expectOrder(res.body.results[0], '000000000', {
      control: '114640004',
      poNumber: 'TLP-X12',
      customerId: 'cust_edi',
      currency: 'USD',
      lines: [{ sku: '12345678', qty: 1, unitPrice: 665 }],
      shipTo: { name: 'SHIP TO', line1: '123 MAIN STREET', city: 'CEDAR RAPIDS', region: 'IA', postalCode: '524032140', country: 'US' },
      edi: { sender: '000000000', poNumber: 'TLP-X12', control: '114640004', date: '2010-06-14' },
    });
  });

  it('OopFactory From_aojuk: 200; 201 (indentation, VP SKUs, N3 street and suite)', async () => {
    const res = await postEdi(x12Fixture('oopfactory__From_aojuk.txt'));
    expect(res.status).toBe(200);
    await expectOrder(res.body.results[0], 'SITESTUFFP2P', {
      control: '0083',
      poNumber: '6190',
      customerId: 'cust_edi',
      currency: 'USD',
      lines: [
        { sku: '123456', name: 'DESCRIPTION 1', qty: 1, unitPrice: 10.98 },
        { sku: '654321', name: 'DESCRIPTION 2', qty: 1, unitPrice: 219 },
      ],
      shipTo: { name: 'Demo Buying Property', line1: 'street 1', line2: 'suite 1', city: 'Austin', region: 'TX', postalCode: '78759', country: 'US' },
      edi: { sender: 'SITESTUFFP2P', poNumber: '6190', control: '0083', date: '2009-01-01' },
    });
  });

  it('staedi 810+850: 200; the two 810s -> 400, the 850 -> 201 (IN SKUs without prices, YYMMDD date)', async () => {
    const res = await postEdi(x12Fixture('mixed__staedi__invoice810_po850_dual.edi'));
    expect(res.status).toBe(200);
    expect(res.body.sender).toBe('SENDERISA');
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([400, 400, 201]);
    expect(res.body.results[0]).toEqual({ control: '000000001', status: 400, error: 'Transaction set 810 is not an 850' });
    expect(res.body.results[1]).toEqual({ control: '000000002', status: 400, error: 'Transaction set 810 is not an 850' });
    await expectOrder(res.body.results[2], 'SENDERISA', {
      control: '000191240',
      poNumber: 'S115921858',
      customerId: 'cust_edi',
      currency: 'USD',
      lines: [{ sku: '02006', qty: 150 }, { sku: '02008', qty: 50 }, { sku: '01019', qty: 25 }, { sku: '01220', qty: 25 }],
      shipTo: { name: 'CARGO LIMITED #112', line1: '3000 LONG BEACH DRIVE', city: 'SAN PEDRO', region: 'CA', postalCode: '83308', country: 'US' },
      edi: { sender: 'SENDERISA', poNumber: 'S115921858', control: '000191240', date: '2004-03-17' },
    });
  });

  it('node-x12 850 and EDI.Net issue135: 200; every transaction 400 (PO1 has none of VP, SK, BP, IN), nothing starts', async () => {
    const before = await count(t, 'orders');
    const a = await postEdi(x12Fixture('nodex12__850.edi'));
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      sender: '4405197800',
      results: [{ control: '000000010', poNumber: '08292233294', status: 400, error: "PO1 line 1 (PO101 '1') has none of the product id qualifiers VP, SK, BP, IN" }],
    });
    const b = await postEdi(x12Fixture('edinet__x12.850.issue135.edi'));
    expect(b.status).toBe(200);
    expect(b.body.sender).toBe('049351117');
    expect(b.body.results.map((r: { poNumber: string; status: number }) => [r.poNumber, r.status])).toEqual([['740150', 400], ['740151', 400]]);
    for (const r of b.body.results) expect(r.error).toMatch(NO_SKU);
    expect(await count(t, 'orders')).toBe(before);
  });

  it('staedi simple810 and node-x12 856: 200; every transaction 400 (not an 850)', async () => {
    const a = await postEdi(x12Fixture('nonpo__staedi__simple810.edi'));
    expect(a.status).toBe(200);
    expect(a.body.results).toEqual([
      { control: '000000001', status: 400, error: 'Transaction set 810 is not an 850' },
      { control: '000000002', status: 400, error: 'Transaction set 810 is not an 850' },
    ]);
    const b = await postEdi(x12Fixture('nonpo__nodex12__856.edi'));
    expect(b.status).toBe(200);
    expect(b.body.results).toEqual([{ control: '0008', status: 400, error: 'Transaction set 856 is not an 850' }]);
  });

  it('node-x12 850_fat: 400 for the body (two interchanges); EDI.Net 850a: 400 (ISA not 106 characters); nothing starts', async () => {
    const before = await count(t, 'orders');
    const fat = await postEdi(x12Fixture('nodex12__850_fat.edi'));
    expect(fat.status).toBe(400);
    expect(fat.body.error).toMatch(/more than one interchange/);
    const short = await postEdi(x12Fixture('edinet__x12.850a.edi'));
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/ISA segment is not 106 characters long/);
    expect(await count(t, 'orders')).toBe(before);
  });
});

describe('idempotency per purchase order (order:edi:<sender>:<PO>)', () => {
  it('the same file again: each 850 is 200 with replayed: true and the same order', async () => {
    const body = interchange(envelope([transaction('0001', po850({ beg: 'BEG*00*SA*PO-TWICE' })), transaction('0002', po850({ beg: 'BEG*00*SA*PO-TWICE-2' }))]), { sender });
    const first = await postEdi(body);
    expect(first.body.results.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    const again = await postEdi(body);
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual(
      first.body.results.map((r: Record<string, unknown>) => ({ ...r, status: 200, replayed: true })),
    );
    expect(await count(t, "orders WHERE external_id LIKE 'ACMEBUYER:PO-TWICE%'")).toBe(2);
  });

  it('a shared file sent twice replays too', async () => {
    await postEdi(x12Fixture('oopfactory__From_aojuk.txt'));
    const again = await postEdi(x12Fixture('oopfactory__From_aojuk.txt'));
    const orderId = (await t.service.ctx.db.query("SELECT id FROM orders WHERE external_id = 'SITESTUFFP2P:6190'")).rows[0].id;
    expect(again.body.results).toEqual([{ control: '0083', poNumber: '6190', status: 200, orderId, flowId: 'tpl-b2b-order', replayed: true }]);
    expect(await count(t, "orders WHERE external_id = 'SITESTUFFP2P:6190'")).toBe(1);
  });

  it('the same PO number with other contents: 422 for that transaction, nothing starts', async () => {
    const ok = await postEdi(interchange(envelope([transaction('0001', po850({ beg: 'BEG*00*SA*PO-777**20240115' }))]), { sender }));
    expect(ok.body.results[0].status).toBe(201);
    const changed = po850({ beg: 'BEG*00*SA*PO-777**20240115', lines: ['PO1*1*5*EA*9.5**VP*ABC-1'] });
    const res = await postEdi(interchange(envelope([transaction('0002', changed)]), { sender }));
    expect(res.body.results).toEqual([{ control: '0002', poNumber: 'PO-777', status: 422, error: expect.any(String) }]);
    expect(await count(t, "orders WHERE external_id = 'ACMEBUYER:PO-777'")).toBe(1);
  });

  it('409 for a transaction whose routed flow is unpublished; the same file starts it once published', async () => {
    await t.call('PUT', '/api/v1/flows/edi-late', { name: 'late', graph: graphs.webhookTrigger });
    await t.service.ctx.db.query(`UPDATE workspace SET order_routes = order_routes || '{"b2b:edi": "edi-late"}'::jsonb`);
    try {
      const body = interchange(envelope([transaction('0001', po850({ beg: 'BEG*00*SA*PO-LATE**20240115' }))]), { sender: 'ACMEBUYER' });
      expect((await postEdi(body)).body.results[0]).toMatchObject({ control: '0001', poNumber: 'PO-LATE', status: 409 });
      await t.call('POST', '/api/v1/flows/edi-late/publish');
      expect((await postEdi(body)).body.results[0]).toMatchObject({ status: 201, flowId: 'edi-late' });
    } finally {
      await t.service.ctx.db.query(`UPDATE workspace SET order_routes = order_routes - 'b2b:edi'`);
    }
  });
});

describe('synthetic interchanges: envelope checks and delimiters', () => {
  const post850s = (transactions: string[][], delimiters = {}) => postEdi(interchange(envelope(transactions), { sender, ...delimiters }));

  it('SE01 not the segment count: that transaction 400, the others start', async () => {
    const res = await post850s([
      transaction('0001', po850({ beg: 'BEG*00*SA*SE-BAD' }), { se01: 99 }),
      transaction('0002', po850({ beg: 'BEG*00*SA*SE-GOOD' })),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({ control: '0001', poNumber: 'SE-BAD', status: 400, error: expect.stringMatching(/SE01 says 99 segments/) });
    expect(res.body.results[1]).toMatchObject({ control: '0002', poNumber: 'SE-GOOD', status: 201 });
    expect(await count(t, "orders WHERE external_id = 'ACMEBUYER:SE-BAD'")).toBe(0);
  });

  it('CTT01 not the number of PO1 lines: 400', async () => {
    const res = await post850s([transaction('0001', po850({ beg: 'BEG*00*SA*CTT-BAD', ctt: 'CTT*3' }))]);
    expect(res.body.results).toEqual([{ control: '0001', poNumber: 'CTT-BAD', status: 400, error: expect.stringMatching(/CTT01 says 3 line items/) }]);
  });

  it('missing BEG03: 400 naming it', async () => {
    const res = await post850s([transaction('0001', po850({ beg: 'BEG*00*SA**' }))]);
    expect(res.body.results).toEqual([{ control: '0001', status: 400, error: 'BEG03 (purchase order number) is missing' }]);
  });

  it('a sender not in the partner list: 403 for the body, nothing starts', async () => {
    const before = await count(t, 'orders');
    const res = await postEdi(interchange(envelope([transaction('0001', po850())]), { sender: 'STRANGER' }));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/STRANGER is not in the partner list/);
    expect(await count(t, 'orders')).toBe(before);
  });

  it('`|` element separator with a newline terminator (and `^` components): 201 with the mapping', async () => {
    const res = await post850s(
      [transaction('0001', po850({ beg: 'BEG*00*SA*PIPE-1**20240301', header: ['CUR*BY*eur'], lines: ['PO1*1*3*EA*4.25**BP*X-9*VP*V-9', 'PID*F****Pipe thing'] }))],
      { element: '|', segment: '\n', component: '^' },
    );
    expect(res.status).toBe(200);
    expect(res.body.sender).toBe('ACMEBUYER');
    const { orderId } = res.body.results[0];
    expect(res.body.results[0]).toMatchObject({ control: '0001', poNumber: 'PIPE-1', status: 201 });
    const { order } = await view(orderId);
    expect(order).toMatchObject({ externalId: 'ACMEBUYER:PIPE-1', title: 'PO PIPE-1', currency: 'EUR', customerId: 'cust_corp' });
    expect(order.input.lines).toEqual([{ sku: 'V-9', name: 'Pipe thing', qty: 3, unitPrice: 4.25 }]);
    expect(order.meta.edi).toEqual({ sender: 'ACMEBUYER', poNumber: 'PIPE-1', control: '0001', date: '2024-03-01' });
    expect(order.meta).not.toHaveProperty('shipTo');
  });

  it('a transaction that maps but breaks the order schema (qty not an integer) is a 400 result', async () => {
    const res = await post850s([transaction('0001', po850({ beg: 'BEG*00*SA*FRACTION', lines: ['PO1*1*1.5*EA*2**VP*A-1'] }))]);
    expect(res.body.results[0]).toMatchObject({ control: '0001', poNumber: 'FRACTION', status: 400, error: expect.stringMatching(/lines\.0\.qty/) });
  });
});

describe('hostile interchanges (security review L1, L2)', () => {
  it("a sender not in the partner list is refused 403 from the ISA header alone: the rest of its body is never tokenized", async () => {
    // Two interchanges in one body are a 400 once tokenized; a stranger's never gets that far.
    const body = interchange(envelope([transaction('0001', po850())]), { sender: 'STRANGER' });
    const res = await postEdi(body + body);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/STRANGER is not in the partner list/);
  });

  it("a stranger's header followed by 4 MiB of element separators is a 403, not millions of parsed elements", async () => {
    const res = await postEdi(isaHeader({ sender: 'STRANGER' }) + '*'.repeat(4 * 1024 * 1024));
    expect(res.status).toBe(403);
  });

  it('a partner segment with more elements than the cap is a 400 for the body and starts nothing', async () => {
    const before = await count(t, 'orders');
    const res = await postEdi(isaHeader({ sender }) + `MSG${'*x'.repeat(X12_LIMITS.elementsPerSegment + 1)}~` + interchange(envelope([transaction('0001', po850())])).slice(106));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(new RegExp(`more than ${X12_LIMITS.elementsPerSegment} elements`));
    expect(await count(t, 'orders')).toBe(before);
  });

  it(`an interchange with more than ${X12_LIMITS.transactions} transaction sets is a 400 and starts nothing`, async () => {
    const before = await count(t, 'orders');
    const many = Array.from({ length: X12_LIMITS.transactions + 1 }, (_, i) => transaction(String(i + 1).padStart(4, '0'), po850({ beg: `BEG*00*SA*CAP-${i}` })));
    const res = await postEdi(interchange(envelope(many), { sender }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Interchange holds more than ${X12_LIMITS.transactions} transaction sets; send them in smaller interchanges`);
    expect(await count(t, 'orders')).toBe(before);
  });

  it(`a partner's body of more than ${X12_LIMITS.elements} elements (each segment under its own cap) is a 400 naming the cap and starts nothing`, async () => {
    const before = await count(t, 'orders');
    const padding = `MSG${'*'.repeat(X12_LIMITS.elementsPerSegment)}~`.repeat(X12_LIMITS.elements / X12_LIMITS.elementsPerSegment + 1);
    // A sound 850 follows the padding: without the cap the padding is ignored as stray segments and the order starts.
    const res = await postEdi(isaHeader({ sender }) + padding + interchange(envelope([transaction('0001', po850({ beg: 'BEG*00*SA*ELEMENT-CAP' }))])).slice(106));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Interchange holds more than ${X12_LIMITS.elements} elements; send it in smaller interchanges`);
    expect(await count(t, 'orders')).toBe(before);
  });

  it('a NUL or other control character in a segment is a 400 for that transaction (never a 500, no error-level log); the others start', async () => {
    const errorsBefore = errorRecords().length;
    const res = await postEdi(
      interchange(
        envelope([
          transaction('0001', po850({ beg: 'BEG*00*SA*PO\u00007**20220101' })),
          transaction('0002', po850({ beg: 'BEG*00*SA*CTL-OK', lines: ['PO1*1*2*EA*9.5**VP*ABC-1', 'PID*F****Wid\u0007get'] })),
          transaction('0003', po850({ beg: 'BEG*00*SA*CTL-GOOD' })),
        ]),
        { sender },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({ control: '0001', status: 400, error: 'Segment BEG holds a control character (U+0000); control characters are not accepted' });
    expect(res.body.results[1]).toEqual({ control: '0002', status: 400, error: 'Segment PID holds a control character (U+0007); control characters are not accepted' });
    expect(res.body.results[2]).toMatchObject({ control: '0003', poNumber: 'CTL-GOOD', status: 201 });
    expect(errorRecords().slice(errorsBefore)).toEqual([]);
  });

  it('delimiters taken from the control range (0x1D elements, 0x1C segments) are still read', async () => {
    const res = await postEdi(interchange(envelope([transaction('0001', po850({ beg: 'BEG*00*SA*CTL-DELIM' }))]), { sender, element: '\u001d', segment: '\u001c' }));
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ control: '0001', poNumber: 'CTL-DELIM', status: 201 });
  });
});

describe('edge of the route', () => {
  it('operator only: viewer and approver tokens 403, no credential 401', async () => {
    const body = x12Fixture('nonpo__nodex12__856.edi');
    for (const role of ['viewer', 'approver']) {
      const token = (await t.call('POST', '/api/v1/api-tokens', { name: `edi-${role}`, role, expiresIn: '90d' })).body.secret;
      expect((await postEdi(body, { token })).status).toBe(403);
    }
    expect((await postEdi(body, { token: null })).status).toBe(401);
  });

  it('media type: application/json is 415; empty body 400; a non-X12 body 400', async () => {
    expect((await postEdi(x12Fixture('nonpo__nodex12__856.edi'), { type: 'application/json' })).status).toBe(415);
    expect((await postEdi('')).status).toBe(400);
    expect((await postEdi('hello, not X12')).status).toBe(400);
  });

  it('bodies up to 5 MiB are read (2 MiB of MSG segments starts the order); over 5 MiB is 413', async () => {
    const msgs = Array.from({ length: 40_000 }, (_, i) => `MSG*${'note '.repeat(9)}${i}`);
    const big = interchange(envelope([transaction('0001', po850({ beg: 'BEG*00*SA*BIG-1', header: msgs }))]), { sender });
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * 1024 * 1024);
    const res = await postEdi(big);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ poNumber: 'BIG-1', status: 201 });
    expect((await postEdi('ISA' + 'x'.repeat(5 * 1024 * 1024))).status).toBe(413);
  });
});

