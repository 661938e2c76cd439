// Real browser (Debian chromium + playwright-core) on batches (contract 16, issue 32): an operator acts on every order
// matching the /orders filter after seeing the count, watches /batches move live, pauses and resumes it; selected rows;
// Restart from an ended order's page (contract 4).
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { openSignedIn } from '../../support/signed-in-page.js';
import { makePerson, type TestPerson } from '../identity/identity-client.js';
import { graphs } from '../orders/orders-support.js';
import { publishFlow } from '../../support/publish-flow.js';

const ATTACHED = { state: 'attached' } as const;
const missing = browserMissing;
if (missing) console.warn(`[batches-browser] skipped: ${missing}`);
/** Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1, else to a temporary folder. */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), 'dashboard-screenshots');

describe.skipIf(missing !== null)(`batches in a real browser${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let t: TestService;
  let browser: any;
  let operator: TestPerson;

  const open = (person: TestPerson, width = 1280) => openSignedIn(browser, t.url, person.cookie, { viewport: { width, height: 900 } });

  async function orders(count: number, title: string): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.call('POST', '/api/v1/orders', { flowId: 'browser-wait', input: { model: 'b2c', title: `${title} ${i}`, lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 5 }] } });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.orderId);
    }
    return ids;
  }

  const batchAttr = (page: any, attr: string) => page.getAttribute('[data-batch-id]', attr);

  beforeAll(async () => {
    t = await startTestService();
    browser = await launchChromium();
    operator = await makePerson(t, 'operator');
    await publishFlow(t, 'browser-wait', graphs.eventWait);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('every order matching the filter: the count first, then /batches shows the batch move live; pause holds it, resume finishes it', async () => {
    const ids = await orders(6, 'bulk-browser');
    await orders(2, 'other-browser');
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/orders?q=bulk-browser&status=waiting`);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
    expect(await page.locator('[data-order-id]').count()).toBe(6);
    await page.selectOption('[data-bulk-operation]', 'deliver_event');
    await page.fill('#bulk-rate', '2');
    await page.click('[data-bulk-count]');
    await page.waitForSelector('form[data-bulk-count="6"]', ATTACHED);
    expect(await page.textContent('[data-bulk-summary]')).toContain('6 orders will be processed');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'orders-batch-1280.png'), fullPage: true });
    // Nothing started by counting.
    expect((await t.call('GET', '/api/v1/batches')).body.batches).toEqual([]);
    await page.click('[data-bulk-confirm]');
    await page.waitForURL(/\/batches\?started=bat_/);
    await page.waitForSelector('[data-batch-id][data-batch-total="6"]', ATTACHED);
    await page.evaluate(() => ((window as any).__notReloaded = true));
    // Live: the row's done count climbs without a reload (2 orders per second).
    await page.waitForSelector('[data-batch-id]:not([data-batch-done="0"])', { ...ATTACHED, timeout: 10_000 });
    await page.click('[data-batch-action="pause"]');
    await page.waitForSelector('[data-batch-state="paused"]', ATTACHED);
    await page.waitForTimeout(600); // an order under way when paused finishes and is shown
    const held = await batchAttr(page, 'data-batch-done');
    await page.waitForTimeout(1_500);
    expect(await batchAttr(page, 'data-batch-done')).toBe(held);
    expect(Number(held)).toBeLessThan(6);
    expect(await page.isVisible('[data-batch-action="resume"]')).toBe(true);
    await page.click('[data-batch-action="resume"]');
    await page.waitForSelector('[data-batch-state="running"]', ATTACHED);
    await page.waitForSelector('[data-batch-state="completed"][data-batch-done="6"]', { ...ATTACHED, timeout: 15_000 });
    expect(await page.evaluate(() => (window as any).__notReloaded)).toBe(true);
    expect(await page.isVisible('[data-batch-action="cancel"]')).toBe(false);
    for (const id of ids) expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('completed');
    await page.screenshot({ path: path.join(SHOTS, 'batches-1280.png'), fullPage: true });
    const events = (await t.call('GET', '/api/v1/audit-events?type=batch')).body.events.map((e: any) => `${e.action} ${e.actor}`);
    expect(events).toEqual(expect.arrayContaining([`batch.started ${operator.email}`, `batch.paused ${operator.email}`, `batch.resumed ${operator.email}`]));
    expect(errors).toEqual([]);
  });

  it('the selected rows only: two ticked orders are cancelled, the others stay', async () => {
    const ids = await orders(4, 'picked-browser');
    const { page, errors } = await open(operator, 390);
    await page.goto(`${t.url}/orders?q=picked-browser`);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
    await page.check(`[data-select-order][value="${ids[0]}"]`);
    await page.check(`[data-select-order][value="${ids[2]}"]`);
    expect(await page.textContent('[data-bulk-selected]')).toBe('2');
    await page.check('input[name="scope"][value="selected"]');
    await page.selectOption('[data-bulk-operation]', 'cancel');
    await page.fill('#bulk-reason', 'Picked by hand');
    await page.fill('#bulk-rate', '1000');
    await page.click('[data-bulk-count]');
    await page.waitForSelector('form[data-bulk-count="2"]', ATTACHED);
    await page.click('[data-bulk-confirm]');
    await page.waitForURL(/\/batches\?started=bat_/);
    await page.waitForSelector('[data-batch-total="2"][data-batch-state="completed"]', { ...ATTACHED, timeout: 15_000 });
    const statuses = await Promise.all(ids.map(async (id) => (await t.call('GET', `/api/v1/orders/${id}`)).body.status));
    expect(statuses).toEqual(['cancelled', 'waiting', 'cancelled', 'waiting']);
    expect((await t.call('GET', `/api/v1/orders/${ids[0]}`)).body.reason).toBe('Picked by hand');
    expect(errors).toEqual([]);
  });

  it("an ended order's page offers Restart (contract 4): it opens the new order, linked to the old one", async () => {
    const [id] = await orders(1, 'restart-browser');
    await t.call('POST', `/api/v1/orders/${id}/cancel`, {});
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/orders/${id}`);
    await page.waitForSelector('[data-live="open"]', ATTACHED);
    await page.click('[data-action-restart]');
    await page.waitForURL((url: URL) => /\/orders\/ord_/.test(url.pathname) && !url.pathname.endsWith(id));
    await page.waitForSelector('[data-order-page][data-order-status="waiting"]', ATTACHED);
    const newId = await page.getAttribute('[data-order-page]', 'data-order-id');
    const { rows } = await t.service.ctx.db.query('SELECT restarted_from FROM orders WHERE id = $1', [newId]);
    expect(rows[0].restarted_from).toBe(id);
    // A waiting order offers no Restart.
    expect(await page.locator('[data-action-restart]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
