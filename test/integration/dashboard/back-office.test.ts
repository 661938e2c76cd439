// The back office (contract 13): sellers, payouts and stock on /back-office with their data-* marks; "mark payout paid"
// (operator, audited, 409 when paid or reversed, a page error rather than a 500) and the stock review from the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { dataAttrs, getPage, makePerson, makeToken, postForm, type TestPerson } from '../identity/identity-client.js';

const DAY = 86_400_000;
let t: TestService;
let operator: TestPerson;
let viewer: TestPerson;
/** Two completed marketplace orders, each with one scheduled payout to seller_nimbus (auto-accept). */
const payoutIds: string[] = [];

async function completedMarketplaceOrder(): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', { flowId: 'tpl-marketplace-order', input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku: 'PRINT-A3', qty: 1 }] } });
  expect(res.status, res.text).toBe(201);
  return res.body.orderId;
}

beforeAll(async () => {
  t = await startTestService();
  const ids = [await completedMarketplaceOrder(), await completedMarketplaceOrder()];
  await t.advance(15 * DAY);
  for (const id of ids) {
    const payouts = (await t.call('GET', `/api/v1/orders/${id}/payouts`)).body.payouts;
    expect(payouts.map((p: any) => p.status)).toEqual(['scheduled']);
    payoutIds.push(payouts[0].id);
  }
  // People after the clock moved, so their sessions are fresh.
  [operator, viewer] = [await makePerson(t, 'operator'), await makePerson(t, 'viewer')];
});
afterAll(async () => {
  await t?.close();
});

describe('back office operations (REST)', () => {
  it('lists sellers with commission, auto-accept and active, and every order\'s payouts by status', async () => {
    const sellers = (await t.call('GET', '/api/v1/sellers')).body.sellers;
    expect(sellers.find((s: any) => s.id === 'seller_nimbus')).toMatchObject({ commission: 0.15, autoAccept: true, active: true });
    expect(sellers.find((s: any) => s.id === 'seller_dormant')).toMatchObject({ active: false });
    const scheduled = (await t.call('GET', '/api/v1/payouts?status=scheduled')).body.payouts.map((p: any) => p.id);
    expect(scheduled).toEqual(expect.arrayContaining(payoutIds));
    expect((await t.call('GET', '/api/v1/payouts?status=lost')).status).toBe(400);
    const mug = (await t.call('GET', '/api/v1/products?q=MUG')).body.products.find((p: any) => p.sku === 'MUG-1');
    expect(mug).toMatchObject({ reorderPoint: 20, available: mug.stock - mug.reserved });
  });

  it('markPayoutPaid: operator only; scheduled -> paid with paidAt; again or reversed is 409; unknown is 404; audited as payout.paid', async () => {
    const viewerToken = (await makeToken(t, 'viewer')).secret;
    expect((await t.call('POST', `/api/v1/payouts/${payoutIds[0]}/paid`, {}, { token: viewerToken })).status).toBe(403);
    const paid = await t.call('POST', `/api/v1/payouts/${payoutIds[0]}/paid`, {});
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ id: payoutIds[0], status: 'paid', sellerId: 'seller_nimbus' });
    expect(paid.body.paidAt).toEqual(expect.any(Number));
    const again = await t.call('POST', `/api/v1/payouts/${payoutIds[0]}/paid`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/is paid, not scheduled/);
    expect((await t.call('POST', '/api/v1/payouts/po_nothing/paid', {})).status).toBe(404);
    const audit = (await t.call('GET', '/api/v1/audit-events?type=payout')).body.events;
    expect(audit).toEqual([expect.objectContaining({ action: 'payout.paid', target: payoutIds[0], detail: expect.objectContaining({ sellerId: 'seller_nimbus' }) })]);
    expect((await t.call('GET', `/api/v1/orders/${paid.body.orderId}/payouts`)).body.payouts[0].status).toBe('paid');
  });
});

describe('/back-office page', () => {
  it('shows sellers (data-seller-id), payouts (data-payout-status) and products (data-sku, data-available); a viewer gets no buttons', async () => {
    const page = await getPage(t, '/back-office', viewer.cookie);
    expect(page.status).toBe(200);
    expect(dataAttrs(page.text, 'seller-id')).toEqual(['seller_acme', 'seller_bolt', 'seller_dormant', 'seller_nimbus']);
    expect(dataAttrs(page.text, 'payout-status').length).toBeGreaterThanOrEqual(2);
    expect(dataAttrs(page.text, 'sku')).toContain('MUG-1');
    expect(page.text).toMatch(/data-sku="MUG-1" data-available="\d+"/);
    expect(page.text).not.toContain('Mark paid');
    expect(page.text).not.toContain('Run the stock review');
    expect((await postForm(t, `/back-office/payouts/${payoutIds[1]}/paid`, {}, { cookie: viewer.cookie })).status).toBe(403);
  });

  it('an operator marks a payout paid from the page (same-origin form post); a reversed one answers 409 with the message, not a 500', async () => {
    const before = await getPage(t, '/back-office?payouts=scheduled', operator.cookie);
    expect(before.text).toContain(`data-payout-id="${payoutIds[1]}" data-payout-status="scheduled"`);
    expect(before.text).toContain(`action="/back-office/payouts/${payoutIds[1]}/paid"`);
    const crossSite = await postForm(t, `/back-office/payouts/${payoutIds[1]}/paid`, {}, { cookie: operator.cookie, origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const posted = await postForm(t, `/back-office/payouts/${payoutIds[1]}/paid`, {}, { cookie: operator.cookie });
    expect(posted.status).toBe(303);
    const after = await getPage(t, posted.location!, operator.cookie);
    expect(after.text).toContain(`data-payout-id="${payoutIds[1]}" data-payout-status="paid"`);
    expect(after.text).toContain(`Payout ${payoutIds[1]} marked paid.`);
    // A payout of an undone order is reversed (set here directly: the marketplace undo suite proves how it happens).
    await t.service.ctx.db.query("UPDATE payouts SET status = 'reversed', reversed_at = 1, paid_at = NULL WHERE id = $1", [payoutIds[1]]);
    const reversed = await postForm(t, `/back-office/payouts/${payoutIds[1]}/paid`, {}, { cookie: operator.cookie });
    expect(reversed.status).toBe(409);
    expect(reversed.text).toContain('is reversed, not scheduled');
    expect((await getPage(t, '/back-office?payouts=bogus', operator.cookie)).status).toBe(400);
  });

  it('an operator runs the stock review from the page and sees how many reorders started', async () => {
    await t.service.ctx.db.query("UPDATE stock_levels SET on_hand = reserved WHERE sku = 'LAMP-OAK'");
    const posted = await postForm(t, '/back-office/stock-review', {}, { cookie: operator.cookie });
    expect(posted.status, posted.text).toBe(303);
    const after = await getPage(t, posted.location!, operator.cookie);
    expect(after.text).toMatch(/Stock review done: [1-9]\d* reorders? started/);
    expect(after.text).toContain('data-sku="LAMP-OAK" data-available="0"');
    const reorders = (await t.call('GET', '/api/v1/orders?q=LAMP-OAK')).body.orders;
    expect(reorders.some((o: any) => o.flowId === 'tpl-reorder')).toBe(true);
  });
});
