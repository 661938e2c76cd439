// Real browser (Debian chromium + playwright-core) on the dashboard: an order followed live to completion, approval with
// undo, a viewer's read-only pages and a forged socket action, the CSP on every page and nothing from another origin.
import { browserMissing, launchChromium } from '../../support/browser.js';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { openSignedIn } from '../../support/signed-in-page.js';
import { makePerson, type TestPerson } from '../identity/identity-client.js';

const DAY = 86_400_000;
/** Waits for elements to exist (SVG groups and the root element have no box Playwright calls visible). */
const ATTACHED = { state: 'attached' } as const;


const missing = browserMissing;
if (missing) console.warn(`[dashboard-browser] skipped: ${missing}`);

/** Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1 (committed once), else to a temporary folder. */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), 'dashboard-screenshots');

const APPROVAL_FLOW = {
  name: 'Dashboard approval',
  graph: {
    nodes: [
      { id: 'start', type: 'trigger.api', label: 'Order received' },
      { id: 'review', type: 'human.approval', label: 'Manager review', params: { title: 'Approve order {{order.id}}', assignee: 'manager', timeout: '2d' } },
      { id: 'done', type: 'end', label: 'Approved', params: { outcome: 'completed' } },
      { id: 'refused', type: 'end', label: 'Refused', params: { outcome: 'declined' } },
    ],
    edges: [
      { from: 'start', to: 'review' },
      { from: 'review', to: 'done', branch: 'approved' },
      { from: 'review', to: 'refused', branch: 'rejected' },
      { from: 'review', to: 'refused', branch: 'escalated' },
    ],
  },
};

describe.skipIf(missing !== null)(`dashboard in a real browser${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let t: TestService;
  let browser: any;
  let operator: TestPerson;
  let approver: TestPerson;
  let viewer: TestPerson;

  /** A page signed in as `person`, recording console errors and every request's origin. */
  const open = (person: TestPerson, width = 1280) => openSignedIn(browser, t.url, person.cookie, { viewport: { width, height: 900 } });

  async function startApprovalOrder(): Promise<string> {
    const res = await t.call('POST', '/api/v1/orders', { flowId: 'dash-approval', input: { model: 'b2c', title: 'Mug for Ada', currency: 'USD', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } });
    expect(res.status, res.text).toBe(201);
    return res.body.orderId;
  }

  beforeAll(async () => {
    t = await startTestService();
    browser = await launchChromium();
    [operator, approver, viewer] = [await makePerson(t, 'operator'), await makePerson(t, 'approver'), await makePerson(t, 'viewer')];
    const saved = await t.call('PUT', '/api/v1/flows/dash-approval', APPROVAL_FLOW);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.problems).toEqual([]);
    expect((await t.call('POST', '/api/v1/flows/dash-approval/publish', {})).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('approve with undo: nothing is sent inside the 5 s window; Undo keeps it unsent; a decision left alone is sent when the window ends', async () => {
    const id = await startApprovalOrder();
    const { page, errors } = await open(approver);
    await page.goto(`${t.url}/orders/${id}`);
    await page.waitForSelector('[data-live="open"]', ATTACHED);
    await page.click('[data-wait-node="review"] button[data-action="approve"]');
    await page.waitForSelector('[data-undo="review"]', ATTACHED);
    // Inside the window: the approval is still open on the server and no action went over the socket.
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.waits.map((w: any) => w.nodeId)).toEqual(['review']);
    expect(await page.getAttribute('html', 'data-sent-actions')).toBeNull();
    await page.click('[data-undo="review"]');
    await page.waitForSelector('[data-wait-node="review"] button[data-action="approve"]', ATTACHED);
    expect(await page.getAttribute('html', 'data-pending-decision')).toBeNull();
    expect(await page.getAttribute('html', 'data-sent-actions')).toBeNull();
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');

    await page.click('[data-wait-node="review"] button[data-action="approve"]');
    await page.waitForSelector('[data-undo="review"]', ATTACHED);
    await page.waitForSelector('[data-order-status="completed"]', { ...ATTACHED, timeout: 20_000 });
    expect(await page.getAttribute('html', 'data-sent-actions')).toBe('1');
    const order = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(order.nodes.review.output).toMatchObject({ decision: 'approved', by: approver.email });
    expect(errors).toEqual([]);
  });

  it('the approvals inbox decides from the row with the same undo window', async () => {
    const id = await startApprovalOrder();
    const { page, errors } = await open(approver);
    await page.goto(`${t.url}/approvals`);
    const row = `[data-approval-order="${id}"][data-approval-node="review"]`;
    await page.waitForSelector(`${row}[data-approval-outcome="pending"]`, ATTACHED);
    await page.click(`${row} button[data-action="reject"]`);
    await page.waitForSelector(`${row} [data-undo="review"]`, ATTACHED);
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
    await page.waitForSelector(`${row}[data-approval-outcome="rejected"]`, { ...ATTACHED, timeout: 20_000 });
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('declined');
    const rejected = await t.call('GET', '/api/v1/approvals?status=rejected');
    expect(rejected.body.approvals.find((a: any) => a.orderId === id)).toMatchObject({ outcome: 'rejected', decidedBy: approver.email });
    expect(errors).toEqual([]);
  });

  it('a viewer sees no action buttons, and an approval forged over the socket is refused (403)', async () => {
    const id = await startApprovalOrder();
    const { page, errors } = await open(viewer);
    await page.goto(`${t.url}/orders/${id}`);
    await page.waitForSelector('[data-live="open"]', ATTACHED);
    await page.waitForSelector('[data-wait-node="review"]', ATTACHED);
    expect(await page.locator('button[data-action]').count()).toBe(0);
    await page.goto(`${t.url}/approvals`);
    await page.waitForSelector(`[data-approval-order="${id}"]`, ATTACHED);
    expect(await page.locator('button[data-action]').count()).toBe(0);
    const answer = await page.evaluate(
      (orderId: string) =>
        new Promise((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/agents/order-agent/${orderId}`);
          ws.onopen = () => ws.send(JSON.stringify({ type: 'action', action: 'approve', nodeId: 'review', requestId: 'forged' }));
          ws.onmessage = (e) => {
            const msg = JSON.parse(e.data);
            if (msg.requestId === 'forged') resolve(msg);
          };
        }),
      id,
    );
    expect(answer).toMatchObject({ type: 'error', status: 403 });
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
    expect(errors).toEqual([]);
  });

  it('every page passes the CSP (no console violations) and loads nothing from another origin; screenshots at 1280 px and 390 px', async () => {
    const id = await startApprovalOrder();
    mkdirSync(SHOTS, { recursive: true });
    const pages: [string, string][] = [
      ['orders', '/orders'],
      ['order', `/orders/${id}`],
      ['approvals', '/approvals'],
      ['flows', '/flows'],
      ['flow', '/flows/tpl-marketplace-order'],
      ['flow-edit', '/flows/tpl-marketplace-order/edit'],
      ['new-order', '/orders/new'],
      ['back-office', '/back-office'],
    ];
    for (const width of [1280, 390]) {
      for (const [name, p] of pages) {
        const { page, context, errors, origins } = await open(operator, width);
        await page.goto(`${t.url}${p}`);
        await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
        if (name === 'order') await page.waitForSelector('[data-live="open"]', ATTACHED);
        if (name === 'flow-edit') await page.waitForSelector('[data-editor-diagram] svg', ATTACHED);
        await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: name !== 'flow' && name !== 'flow-edit' });
        expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e)), `${p} at ${width}`).toEqual([]);
        expect(errors, `${p} at ${width}`).toEqual([]);
        const own = new URL(t.url).origin;
        expect([...origins].filter((o) => o !== own && o !== own.replace('http:', 'ws:')), p).toEqual([]);
        // Keyboard reachable: the first Tab lands on the skip link, then the navigation.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
        await context.close();
      }
    }
  });
  it("seller orders on the order page: an operator records a seller's acceptance with its button and the part turns accepted without a reload", async () => {
    const started = await t.call('POST', '/api/v1/orders', { flowId: 'tpl-marketplace-order', input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku: 'TENT-2P', qty: 1 }] } });
    expect(started.status, started.text).toBe(201);
    const id = started.body.orderId;
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/orders/${id}`);
    await page.waitForSelector('[data-live="open"]', ATTACHED);
    await page.waitForSelector('[data-seller-order-seller="seller_bolt"][data-seller-order-status="pending"]', ATTACHED);
    await page.evaluate(() => ((window as any).__notReloaded = true));
    await page.click('[data-seller-answer="seller_bolt"] button:has-text("seller_bolt accepts")');
    await page.waitForSelector('[data-seller-order-seller="seller_bolt"][data-seller-order-status="accepted"]', ATTACHED);
    await page.waitForSelector('svg [data-node-id="wait_sellers"][data-node-status="succeeded"]', ATTACHED);
    expect(await page.evaluate(() => (window as any).__notReloaded)).toBe(true);
    expect((await t.call('GET', `/api/v1/orders/${id}/seller-orders`)).body.sellerOrders[0]).toMatchObject({ sellerId: 'seller_bolt', status: 'accepted' });
    expect(errors).toEqual([]);
  });

  it('publish a draft from the editor and see the new version drawn: each change is checked and redrawn, problems block publishing', async () => {
    const saved = await t.call('PUT', '/api/v1/flows/dash-editor', { ...APPROVAL_FLOW, name: 'Dashboard editor' });
    expect(saved.status, saved.text).toBe(200);
    expect((await t.call('POST', '/api/v1/flows/dash-editor/publish', {})).body.version).toBe(1);
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/flows/dash-editor`);
    await page.click('[data-edit-draft]');
    await page.waitForSelector('form[data-flow-editor] [data-editor-diagram] svg [data-node-id="review"]', ATTACHED);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);

    // A cooling-off wait before the review: the drawing beside the text gains the node, no save yet.
    const graph = structuredClone(APPROVAL_FLOW.graph) as any;
    graph.nodes.splice(1, 0, { id: 'cool_off', type: 'wait.delay', label: 'Cool off', params: { duration: '1h' } });
    graph.edges[0] = { from: 'start', to: 'cool_off' };
    const broken = JSON.stringify(graph, null, 2);
    await page.fill('[data-graph-input]', broken);
    await page.waitForSelector('[data-editor-diagram] svg [data-node-id="cool_off"][data-problem="true"]', ATTACHED);
    await page.waitForSelector('[data-problems] [data-problem-node="cool_off"]', ATTACHED);
    expect(await page.isDisabled('[data-publish]')).toBe(true);
    // Text that is not JSON is said so; nothing is sent for it.
    await page.fill('[data-graph-input]', '{ "nodes": [');
    await page.waitForSelector('[data-check-state]:has-text("Not JSON yet")', ATTACHED);
    graph.edges.push({ from: 'cool_off', to: 'review' });
    await page.fill('[data-graph-input]', JSON.stringify(graph, null, 2));
    await page.waitForSelector('[data-editor-diagram] svg [data-node-id="cool_off"]:not([data-problem])', ATTACHED);
    await page.waitForSelector('[data-publish]:not([disabled])', ATTACHED);
    expect(await page.locator('[data-problems] li').count()).toBe(0);
    expect((await t.call('GET', '/api/v1/flows/dash-editor')).body.flow.publishedVersion).toBe(1);

    await page.click('[data-publish]');
    await page.waitForURL(/\/flows\/dash-editor\?version=2&published=1$/);
    await page.waitForSelector('[data-flow-diagram-page][data-version="2"] svg [data-node-id="cool_off"]', ATTACHED);
    expect(await page.locator('[data-edge-from="start"][data-edge-to="cool_off"]').count()).toBeGreaterThan(0);
    expect((await t.call('GET', '/api/v1/flows/dash-editor')).body.flow.publishedVersion).toBe(2);
    expect(errors).toEqual([]);
  });

  // Last: it moves the test clock 15 days, past the other people's sessions.
  it('live order page: a marketplace order goes from waiting to completed as events arrive over REST, without a reload', async () => {
    const started = await t.call('POST', '/api/v1/orders', { flowId: 'tpl-marketplace-order', input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku: 'PAN-CAST-10', qty: 1 }] } });
    expect(started.status, started.text).toBe(201);
    const id = started.body.orderId;
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/orders/${id}`);
    await page.waitForSelector('[data-order-status="waiting"]', ATTACHED);
    await page.waitForSelector('[data-live="open"]', ATTACHED);
    await page.waitForSelector('svg [data-node-id="wait_sellers"][data-node-status="waiting"]', ATTACHED);
    expect(await page.getAttribute('svg [data-node-id="price"]', 'data-node-status')).toBe('succeeded');
    expect(await page.locator('[data-wait-node="wait_sellers"][data-wait-kind="event"]').count()).toBe(1);
    // A marker in the page's memory: it survives only if the page is never reloaded.
    await page.evaluate(() => ((window as any).__notReloaded = true));

    const seller = (await t.call('GET', `/api/v1/orders/${id}`)).body.order.lines[0].sellerId;
    const delivered = await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId: seller, decision: 'accepted' } });
    expect(delivered.body.delivered, delivered.text).toBe(true);
    await page.waitForSelector('svg [data-node-id="wait_sellers"][data-node-status="succeeded"]', ATTACHED);
    await page.waitForSelector('svg [data-node-id="wait_returns"][data-node-status="waiting"]', ATTACHED);
    await page.waitForSelector('svg [data-edge-from="reserve"][data-edge-status="active"]', ATTACHED);
    await page.waitForSelector('[data-wait-node="wait_sellers"]', { state: 'detached' });

    await t.advance(15 * DAY);
    await page.waitForSelector('[data-order-status="completed"]', ATTACHED);
    await page.waitForSelector('svg [data-node-id="completed"][data-node-status="succeeded"]', ATTACHED);
    await page.waitForSelector('[data-timeline-kind]', ATTACHED);
    expect(await page.textContent('svg [data-node-id="completed"] .node-status')).toBe('succeeded');
    expect(await page.evaluate(() => (window as any).__notReloaded)).toBe(true);
    expect(errors).toEqual([]);
  });

});
