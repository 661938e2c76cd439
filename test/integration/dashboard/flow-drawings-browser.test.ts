// Drawings that fit and the heat view in a real browser (contract 17, issue 35), at 1280 and 390 px: the marketplace flow's
// drawing fits its box on the order page, the flow page and the heat view, and opens on where the order is; the heat view's
// marks are the stats API's; on a phone the waiting card comes first and no table scrolls sideways; Publish only for a
// draft that differs. Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { openSignedIn } from '../../support/signed-in-page.js';
import { makePerson, type TestPerson } from '../identity/identity-client.js';

const ATTACHED = { state: 'attached' } as const;
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), 'dashboard-screenshots');
/** Wednesday 2026-01-07 10:00 UTC. */
const T0 = Date.UTC(2026, 0, 7, 10, 0, 0);
const missing = browserMissing;
if (missing) console.warn(`[flow-drawings-browser] skipped: ${missing}`);

const marketplaceOrder = (sku: string) => ({ flowId: 'tpl-marketplace-order', input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku, qty: 1 }] } });

describe.skipIf(missing !== null)(`drawings that fit, the heat view and phone layouts in a real browser${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let t: TestService;
  let browser: any;
  let operator: TestPerson;
  let waitingId: string;
  let timerId: string;

  /** The operator's page at `width` (a phone's height below 600 px). */
  const open = (width: number) => openSignedIn(browser, t.url, operator.cookie, { viewport: { width, height: width > 600 ? 900 : 844 }, deviceScaleFactor: 1 });

  /** The box of the drawing, its drawing and the page: nothing wider than its container. */
  async function fit(page: any, box: string) {
    return page.$eval(box, (el: HTMLElement) => {
      const svg = el.querySelector('svg')!.getBoundingClientRect();
      const b = el.getBoundingClientRect();
      return {
        svgWidth: svg.width,
        svgHeight: svg.height,
        boxWidth: el.clientWidth,
        boxScrollWidth: el.scrollWidth,
        boxLeft: b.left,
        boxRight: b.right,
        pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      };
    });
  }

  /** Elements wider than the page (what makes it scroll sideways), for the failure message. */
  const widest = (page: any) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 20))
        .slice(0, 8)
        .map((e) => `${e.tagName.toLowerCase()}.${(e.getAttribute('class') ?? '').replace(/ /g, '.')}[${Math.round(e.getBoundingClientRect().right)} ${e.scrollWidth}/${e.clientWidth}]`),
    );

  function expectFits(f: Awaited<ReturnType<typeof fit>>, where: string) {
    expect(f.svgWidth, where).toBeGreaterThan(100);
    expect(f.svgWidth, where).toBeLessThanOrEqual(f.boxWidth + 1);
    expect(f.boxScrollWidth, where).toBeLessThanOrEqual(f.boxWidth + 1);
    expect(f.pageOverflow, where).toBeLessThanOrEqual(0);
  }

  beforeAll(async () => {
    t = await startTestService({ clockAt: T0 });
    browser = await launchChromium();
    // One order accepted and run to its end (15 days: past its return window); then one accepted (now in its 14-day
    // return window, a timer wait) and one waiting for its sellers.
    const accept = async (id: string) => {
      const seller = (await t.call('GET', `/api/v1/orders/${id}`)).body.order.lines[0].sellerId;
      await t.advance(10 * 60_000);
      expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId: seller, decision: 'accepted' } })).body.delivered).toBe(true);
    };
    const place = async () => {
      const res = await t.call('POST', '/api/v1/orders', marketplaceOrder('PAN-CAST-10'));
      expect(res.status, res.text).toBe(201);
      return res.body.orderId as string;
    };
    await accept(await place());
    await t.advance(15 * 86_400_000);
    timerId = await place();
    await accept(timerId);
    waitingId = await place();
    // A pending approval for the inbox.
    const flow = {
      name: 'Phone approval',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger.api' },
          { id: 'review', type: 'human.approval', label: 'Manager review', params: { title: 'Approve order {{order.id}} for a long customer name', assignee: 'manager', timeout: '2d' } },
          { id: 'done', type: 'end', params: { outcome: 'completed' } },
          { id: 'no', type: 'end', params: { outcome: 'declined' } },
        ],
        edges: [{ from: 'start', to: 'review' }, { from: 'review', to: 'done', branch: 'approved' }, { from: 'review', to: 'no', branch: 'rejected' }, { from: 'review', to: 'no', branch: 'escalated' }],
      },
    };
    expect((await t.call('PUT', '/api/v1/flows/phone-approval', flow)).status).toBe(200);
    expect((await t.call('POST', '/api/v1/flows/phone-approval/publish', {})).status).toBe(200);
    expect((await t.call('POST', '/api/v1/orders', { flowId: 'phone-approval', input: { model: 'b2c', title: 'Cast-iron pan for Ada', currency: 'USD', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } })).status).toBe(201);
    await t.advance(0);
    // Signed in after the clock moved 15 days (a session made before would have expired).
    operator = await makePerson(t, 'operator');
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each([1280, 390])('at %i px the marketplace drawing fits its box on the order page, opened on where the order is; on a phone the waiting card comes first', async (width) => {
    const { page, context, errors } = await open(width);
    await page.goto(`${t.url}/orders/${waitingId}`);
    await page.waitForSelector('[data-order-diagram][data-diagram-ready]', ATTACHED);
    await page.waitForSelector('[data-live="open"]', ATTACHED);
    expect(await widest(page), `order page at ${width}`).toEqual([]);
    expectFits(await fit(page, '[data-order-diagram]'), `order page at ${width}`);
    // The node it waits at is inside the box's visible part (the box scrolled to it, not the page).
    const seen = await page.$eval('[data-order-diagram]', (el: HTMLElement) => {
      const n = el.querySelector('[data-node-id="wait_sellers"]')!.getBoundingClientRect();
      const b = el.getBoundingClientRect();
      return { top: n.top >= b.top - 1, bottom: n.bottom <= b.top + el.clientHeight + 1, current: el.querySelector('[data-node-id="wait_sellers"]')!.classList.contains('node-current') };
    });
    expect(seen).toEqual({ top: true, bottom: true, current: true });
    const order = await page.$$eval('[data-wait-node="wait_sellers"], [data-order-diagram], [data-live-section="timeline"]', (els: Element[]) => els.map((e) => e.getBoundingClientRect().top));
    if (width === 390) expect(order[0]).toBeLessThan(order[1]);
    expect(await page.locator('[data-steps] [data-step="price"][data-step-status="succeeded"]').count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, `order-marketplace-${width}.png`) });
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([1280, 390])('at %i px a timer wait reads "Waiting until <time>", not "Not waiting for anyone"', async (width) => {
    const { page, context, errors } = await open(width);
    await page.goto(`${t.url}/orders/${timerId}`);
    await page.waitForSelector('[data-order-diagram][data-diagram-ready]', ATTACHED);
    const until = (await t.call('GET', `/api/v1/orders/${timerId}`)).body.timers[0].until;
    expect(await page.textContent('[data-wait-node="wait_returns"][data-wait-kind="delay"] [data-waiting-until]')).toBe(`Waiting until ${new Date(until).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}`);
    expect(await page.locator('[data-no-waits]').count()).toBe(0);
    expect(await page.$eval('[data-order-diagram] [data-node-id="wait_returns"]', (g: Element) => g.classList.contains('node-current'))).toBe(true);
    expectFits(await fit(page, '[data-order-diagram]'), `timer order at ${width}`);
    await page.screenshot({ path: path.join(SHOTS, `order-return-window-${width}.png`) });
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([1280, 390])('at %i px the flow page drawing and the heat view fit their box; the heat marks are the stats API answer', async (width) => {
    const { page, context, errors } = await open(width);
    await page.goto(`${t.url}/flows/tpl-marketplace-order`);
    await page.waitForSelector('[data-flow-diagram-page][data-diagram-ready]', ATTACHED);
    expectFits(await fit(page, '[data-flow-diagram-page]'), `flow page at ${width}`);
    // The built-in draft is version 1 unchanged: not drawn twice, not offered for publishing.
    expect(await page.locator('[data-draft-unchanged]').count()).toBe(1);
    expect(await page.locator('[data-publish]').count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, `flow-marketplace-${width}.png`), fullPage: true });

    await page.click('[data-heat-link]');
    await page.waitForSelector('[data-flow-diagram-page][data-heat-view][data-diagram-ready]', ATTACHED);
    expectFits(await fit(page, '[data-flow-diagram-page]'), `heat view at ${width}`);
    const from = await page.getAttribute('[data-heat-summary]', 'data-heat-from');
    const to = await page.getAttribute('[data-heat-summary]', 'data-heat-to');
    const stats = (await t.call('GET', `/api/v1/flows/tpl-marketplace-order/stats?from=${from}&to=${to}`)).body;
    expect(stats.nodes.wait_sellers.activeNow).toBe(1);
    expect(stats.nodes.wait_returns.activeNow).toBe(1);
    const nodes = await page.$$eval('[data-heat-view] svg [data-node-id]', (els: Element[]) => els.map((e) => [e.getAttribute('data-node-id'), e.getAttribute('data-p95-ms'), e.getAttribute('data-active-now')]));
    expect(nodes).toHaveLength(Object.keys(stats.nodes).length);
    for (const [id, p95, now] of nodes) expect([p95, now], id).toEqual([String(stats.nodes[id].durationMs.p95 ?? ''), String(stats.nodes[id].activeNow)]);
    const edges = await page.$$eval('[data-heat-view] svg [data-edge-from]', (els: Element[]) =>
      els.map((e) => `${e.getAttribute('data-edge-from')}>${e.getAttribute('data-edge-to')}>${e.getAttribute('data-edge-branch')}=${e.getAttribute('data-edge-count')}`),
    );
    expect(edges.sort()).toEqual(stats.edges.map((e: any) => `${e.from}>${e.to}>${e.branch}=${e.count}`).sort());
    // The first order was created 15 days ago, before the 7 days shown: only the order in its return window counts.
    expect(stats.edges.find((e: any) => e.from === 'wait_sellers' && e.branch === 'received').count).toBe(1);
    // Values as text too: the legend and the table (colour is never the only carrier).
    expect(await page.locator('[data-heat-legend] li').count()).toBeGreaterThan(1);
    expect(await page.textContent('[data-heat-table] [data-heat-node="wait_sellers"]')).toMatch(/min/);
    await page.screenshot({ path: path.join(SHOTS, `flow-heat-${width}.png`), fullPage: true });

    // Zoom in: the drawing grows past the box, which then pans; Fit brings the whole machine back.
    for (let i = 0; i < 4; i++) await page.click('[data-diagram-tools] [data-zoom="in"]');
    const zoomed = await fit(page, '[data-flow-diagram-page]');
    expect(zoomed.boxScrollWidth).toBeGreaterThan(zoomed.boxWidth);
    await page.click('[data-diagram-tools] [data-zoom="fit"]');
    expectFits(await fit(page, '[data-flow-diagram-page]'), `heat view after Fit at ${width}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 390 px no table scrolls sideways: the inbox, audit, account, flows and back office; the editor drawing fits', async () => {
    const { page, context, errors } = await open(390);
    for (const p of ['/approvals', '/audit', '/account', '/flows', '/back-office', '/orders']) {
      await page.goto(`${t.url}${p}`, { waitUntil: 'load' });
      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        tables: Array.from(document.querySelectorAll('table')).map((tb) => (tb.parentElement?.scrollWidth ?? 0) - (tb.parentElement?.clientWidth ?? 0)),
      }));
      expect(await widest(page), p).toEqual([]);
      expect(overflow.page, p).toBeLessThanOrEqual(0);
      for (const o of overflow.tables) expect(o, p).toBeLessThanOrEqual(0);
      if (p === '/approvals') {
        expect(await page.locator('[data-approval-order] button[data-action="approve"]').count()).toBe(1);
        const button = await page.$eval('[data-approval-order] button[data-action="approve"]', (b: Element) => b.getBoundingClientRect().right);
        expect(button).toBeLessThanOrEqual(390);
        await page.screenshot({ path: path.join(SHOTS, 'approvals-phone-390.png'), fullPage: true });
      }
    }
    await page.goto(`${t.url}/flows/tpl-marketplace-order/edit`);
    await page.waitForSelector('[data-editor-diagram][data-diagram-ready] svg', ATTACHED);
    expectFits(await fit(page, '[data-editor-diagram]'), 'editor at 390');
    expect(errors).toEqual([]);
    await context.close();
  });
});
