// Real browser (Debian chromium + playwright-core) on the flow page's Move form (contract 15, issue 34): an operator sees it for a
// version with waiting orders, maps a renamed wait, dry-runs (movable and refused with their reasons), confirms, and the orders'
// live state moves to the new version; the next event runs on the new graph; a viewer sees no form.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makePerson, type TestPerson } from '../identity/identity-client.js';
import { e, n } from '../../support/engine-harness.js';
import { publishFlow } from '../../support/publish-flow.js';

const ATTACHED = { state: 'attached' } as const;
const missing = browserMissing;
if (missing) console.warn(`[flow-move-browser] skipped: ${missing}`);
/** Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1, else to a temporary folder. */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), 'dashboard-screenshots');

const FLOW = 'move-browser';
/** Version 1: the payment wait, then a finance review. */
const V1 = {
  nodes: [
    n('start', 'trigger.api'),
    n('pay', 'wait.event', { event: 'payment.received', timeout: '3d' }, 'Wait for payment'),
    n('review', 'human.approval', { title: 'Review {{order.title}}', assignee: 'finance' }, 'Finance review'),
    n('done', 'end', { outcome: 'completed' }),
    n('no', 'end', { outcome: 'declined', reason: 'Rejected in review' }),
    n('late', 'end', { outcome: 'cancelled', reason: 'No payment' }),
  ],
  edges: [e('start', 'pay'), e('pay', 'review', 'received'), e('pay', 'late', 'timeout'), e('review', 'done', 'approved'), e('review', 'no', 'rejected'), e('review', 'late', 'escalated')],
};
/** Version 2: the wait renamed `payment`, the review dropped; a paid order ends with its own reason. */
const V2 = {
  nodes: [
    n('start', 'trigger.api'),
    n('payment', 'wait.event', { event: 'payment.received', timeout: '3d' }, 'Payment'),
    n('paid', 'end', { outcome: 'completed', reason: 'Paid on version 2' }),
    n('late', 'end', { outcome: 'cancelled', reason: 'No payment' }),
  ],
  edges: [e('start', 'payment'), e('payment', 'paid', 'received'), e('payment', 'late', 'timeout')],
};

describe.skipIf(missing !== null)(`moving live orders from the flow page in a real browser${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let t: TestService;
  let browser: any;
  let operator: TestPerson;
  let viewer: TestPerson;
  let waiting: string[];
  let reviewing: string;

  async function open(person: TestPerson, width = 1280) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const [name, value] = person.cookie.split('=');
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m: any) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (err: Error) => errors.push(err.message));
    return { page, errors };
  }

  async function order(title: string): Promise<string> {
    const res = await t.call('POST', '/api/v1/orders', { flowId: FLOW, input: { model: 'b2c', title, lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 5 }] } });
    expect(res.status, res.text).toBe(201);
    return res.body.orderId;
  }

  const live = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;

  beforeAll(async () => {
    t = await startTestService();
    browser = await launchChromium();
    operator = await makePerson(t, 'operator');
    viewer = await makePerson(t, 'viewer');
    await publishFlow(t, FLOW, V1);
    waiting = [await order('move 1'), await order('move 2'), await order('move 3')];
    reviewing = await order('move review');
    const paid = await t.call('POST', `/api/v1/orders/${reviewing}/events`, { event: 'payment.received', payload: {} });
    expect(paid.status, paid.text).toBeLessThan(300);
    expect((await live(reviewing)).waits[0]).toMatchObject({ nodeId: 'review', kind: 'approval' });
    expect(await publishFlow(t, FLOW, V2)).toBe(2);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a viewer sees the versions but no Move form', async () => {
    const { page, errors } = await open(viewer);
    await page.goto(`${t.url}/flows/${FLOW}`);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
    expect(await page.locator('[data-flow-diagram-page]').count()).toBe(1);
    expect(await page.locator('[data-move-section], [data-move-form]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('an operator maps the renamed wait, dry-runs (3 movable, the order at the dropped review refused with its reason), moves 3 orders to version 2, and the next event runs on version 2', async () => {
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/flows/${FLOW}`);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
    // One form, for version 1 (version 2 is the latest: nothing later to move to), with its 4 live orders.
    expect(await page.locator('[data-move-form]').count()).toBe(1);
    const form = page.locator('form[data-move-form][data-move-version="1"]');
    expect(await form.getAttribute('data-move-live')).toBe('4');
    expect(await form.locator('[data-move-target]').inputValue()).toBe('2');
    // Rows for the nodes version 2 lacks: the wait (offered v2's wait) and the review (nothing of its type); `start` and `late` map
    // by id, and the Ends `done` and `no` need none (an order that reached one has ended).
    const rows = form.locator('[data-move-mapping="2"] [data-move-map-node]');
    expect(await rows.evaluateAll((els: Element[]) => els.map((el) => el.getAttribute('data-move-map-node')))).toEqual(['pay', 'review']);
    expect(await form.locator('[data-move-map-node="pay"]').getAttribute('data-live-orders')).toBe('3');
    expect(await form.locator('select[data-move-map-select="pay"] option').evaluateAll((os: HTMLOptionElement[]) => os.map((o) => o.value))).toEqual(['', 'payment']);
    expect(await form.locator('select[data-move-map-select="review"] option').evaluateAll((os: HTMLOptionElement[]) => os.map((o) => o.value))).toEqual(['']);

    // Unmapped, the wait has no counterpart: nothing can move, no confirm.
    await form.locator('[data-move-dry-run]').click();
    await page.waitForSelector('form[data-move-count="0"]', ATTACHED);
    expect(await form.locator('[data-move-refused]').getAttribute('data-move-refused')).toBe('4');
    expect(await form.locator('[data-move-confirm]').isVisible()).toBe(false);

    // Mapped: a change clears the last answer, the next dry run counts 3.
    await form.locator('select[data-move-map-select="pay"]').selectOption('payment');
    expect(await form.locator('[data-move-result]').isVisible()).toBe(false);
    await form.locator('[data-move-dry-run]').click();
    await page.waitForSelector('form[data-move-count="3"]', ATTACHED);
    expect(await form.locator('[data-move-movable]').getAttribute('data-move-movable')).toBe('3');
    expect(await form.locator('[data-move-refused]').getAttribute('data-move-refused')).toBe('1');
    const refusal = form.locator(`[data-move-refusal="${reviewing}"]`);
    expect(await refusal.count()).toBe(1);
    expect(await refusal.textContent()).toContain('review');
    expect(await form.locator('[data-move-confirm]').textContent()).toBe('Move 3 orders');
    // A dry run changed nothing.
    for (const id of waiting) expect((await live(id)).flow.version).toBe(1);
    expect((await t.call('GET', '/api/v1/batches')).body.batches).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'flow-move-1280.png'), fullPage: true });

    await form.locator('[data-move-confirm]').click();
    await page.waitForSelector('[data-move-started]', ATTACHED);
    const batchId = await form.locator('[data-move-started]').getAttribute('data-move-started');
    expect(batchId).toMatch(/^bat_/);
    expect(await form.locator('[data-move-confirm]').isVisible()).toBe(false);
    await form.locator('[data-move-batch-link]').click();
    await page.waitForURL(/\/batches\?started=bat_/);
    await page.waitForSelector(`[data-batch-id="${batchId}"][data-batch-state="completed"][data-batch-done="3"][data-batch-total="3"]`, { ...ATTACHED, timeout: 15_000 });

    // Moved: version 2, the wait under its new id with its deadline unchanged; the refused order stays on version 1 at its review.
    for (const id of waiting) {
      const state = await live(id);
      expect(state.flow.version).toBe(2);
      expect(state.status).toBe('waiting');
      expect(state.waits).toEqual([expect.objectContaining({ nodeId: 'payment', kind: 'event', event: 'payment.received' })]);
    }
    expect((await live(reviewing)).flow.version).toBe(1);
    const paid = await t.call('POST', `/api/v1/orders/${waiting[0]}/events`, { event: 'payment.received', payload: {} });
    expect(paid.status, paid.text).toBeLessThan(300);
    const ended = await live(waiting[0]);
    expect([ended.status, ended.reason]).toEqual(['completed', 'Paid on version 2']);
    expect(errors).toEqual([]);
  });

  it('on a phone the form reads without scrolling sideways; its version count follows the move', async () => {
    const { page, errors } = await open(operator, 390);
    await page.goto(`${t.url}/flows/${FLOW}`);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
    // After the move only the refused order is live on version 1.
    expect(await page.locator('form[data-move-form][data-move-version="1"]').getAttribute('data-move-live')).toBe('1');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(SHOTS, 'flow-move-390.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it("the /orders batch panel offers every batch operation but migrate, which needs the flow page's versions and mapping", async () => {
    const { page, errors } = await open(operator);
    await page.goto(`${t.url}/orders`);
    await page.waitForSelector('html[data-dashboard-ready]', ATTACHED);
    const offered = await page.locator('[data-bulk-operation] option').evaluateAll((os: HTMLOptionElement[]) => os.map((o) => o.value));
    expect(offered).toEqual(['cancel', 'deliver_event', 'decide_approval', 'resolve_hold', 'restart']);
    expect(errors).toEqual([]);
  });
});
