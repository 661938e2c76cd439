// /orders/new (contract 13, operator): a same-origin form post starts an order on a published flow as the signed-in
// person; a refusal shows the API's messages with what was typed kept, never a 500; a double submit starts one order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { dataAttr, dataAttrs, getPage, makePerson, postForm, type TestPerson } from '../identity/identity-client.js';

let t: TestService;
let operator: TestPerson;
let approver: TestPerson;

beforeAll(async () => {
  t = await startTestService();
  [operator, approver] = [await makePerson(t, 'operator'), await makePerson(t, 'approver')];
});
afterAll(async () => {
  await t?.close();
});

const form = (key: string, extra: Record<string, string> = {}) => ({
  idempotencyKey: key,
  flowId: 'tpl-storefront-order',
  model: 'b2c',
  channel: 'manual',
  currency: 'USD',
  title: 'Phone order for Ada',
  customerId: 'cust_1',
  email: 'ada@example.com',
  fulfillment: '',
  sku0: 'MUG-1',
  qty0: '2',
  unitPrice0: '',
  sku1: '',
  qty1: '',
  unitPrice1: '',
  ...extra,
});

describe('/orders/new', () => {
  it('is for operators: an approver gets 403 on the form and on the post', async () => {
    expect((await getPage(t, '/orders/new', approver.cookie)).status).toBe(403);
    expect((await postForm(t, '/orders/new', form('k-approver'), { cookie: approver.cookie })).status).toBe(403);
  });

  it('offers only published flows, each with its version, and a fresh idempotency key per form', async () => {
    const first = await getPage(t, '/orders/new', operator.cookie);
    expect(first.status).toBe(200);
    expect(first.text).toContain('<option value="tpl-storefront-order"');
    expect(first.text).toContain('data-new-order-form');
    const second = await getPage(t, '/orders/new', operator.cookie);
    const key = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
    expect(key(first.text)).toBeTruthy();
    expect(key(first.text)).not.toBe(key(second.text));
  });

  it('starts the order as the signed-in person and goes to its page; the same form sent twice starts one order', async () => {
    const posted = await postForm(t, '/orders/new', form('k-once'), { cookie: operator.cookie });
    expect(posted.status, posted.text).toBe(303);
    const id = posted.location!.replace('/orders/', '');
    const order = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(order.order).toMatchObject({ title: 'Phone order for Ada', channel: 'manual', customerId: 'cust_1', contactEmail: 'ada@example.com' });
    expect(order.order.lines).toEqual([expect.objectContaining({ sku: 'MUG-1', qty: 2 })]);
    const page = await getPage(t, posted.location!, operator.cookie);
    expect(dataAttr(page.text, 'order-id')).toBe(id);
    expect((await postForm(t, '/orders/new', form('k-once'), { cookie: operator.cookie })).location).toBe(posted.location);
  });

  it('bad input answers 400 with the API issues next to what was typed; an unpublished flow answers with its message; never a 500', async () => {
    const bad = await postForm(t, '/orders/new', form('k-bad', { qty0: 'lots', currency: 'usd' }), { cookie: operator.cookie });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert"');
    expect(dataAttrs(bad.text, 'issue-path')).toEqual(expect.arrayContaining(['input.currency', 'input.lines.0.qty']));
    expect(bad.text).toContain('value="lots"');
    const unknown = await postForm(t, '/orders/new', form('k-unknown', { flowId: 'no-such-flow' }), { cookie: operator.cookie });
    expect([404, 409]).toContain(unknown.status);
    expect(unknown.text).toContain('data-error');
    const empty = await postForm(t, '/orders/new', {}, { cookie: operator.cookie });
    expect(empty.status).toBe(400);
  });

  it('a cross-site post is refused (403) and starts nothing', async () => {
    const before = (await t.call('GET', '/api/v1/orders?q=Cross')).body.orders.length;
    const res = await postForm(t, '/orders/new', form('k-cross', { title: 'Cross site' }), { cookie: operator.cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect((await t.call('GET', '/api/v1/orders?q=Cross')).body.orders.length).toBe(before);
  });
});
