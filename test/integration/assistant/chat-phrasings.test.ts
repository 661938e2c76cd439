// The assistant's grammar, table-driven (issue "Assistant"): 60+ phrasings, typos and word orders included, each
// checked for the tool it called and the number or id in its answer, against a seeded workspace; writes only propose.
// Dates are read on the test clock, started on a fixed Friday and walked through every weekday, never the real calendar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import { e, graphs, n, publishFlow, startBody } from '../orders/orders-support.js';

let t: TestService;
const ids: Record<string, string> = {};
const operator: Principal = { kind: 'person', id: 'per_chat', role: 'operator', actor: 'chat@example.com', via: 'bearer' };
const viewer: Principal = { ...operator, role: 'viewer', actor: 'viewer@example.com' };

const start = async (flowId: string, input: Record<string, unknown>) => {
  const res = await t.call('POST', '/api/v1/orders', startBody(flowId, input));
  if (res.status !== 201) throw new Error(res.text);
  return res.body.orderId as string;
};

/** Friday 2035-11-30, 12:00 UTC: the service's clock starts here (a few seconds later once it is up). */
const FRIDAY_NOON = Date.UTC(2035, 10, 30, 12);
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestService({ clockAt: FRIDAY_NOON });
  await publishFlow(t, 'approval-flow', graphs.approval);
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'failing-flow', { nodes: [n('start', 'trigger.api'), n('fail', 'end', { outcome: 'failed', reason: 'Broken on purpose' })], edges: [e('start', 'fail')] });
  // Totals: the default lines are 2 x 12.50 = 25 (tax 0); B orders 9.50; E 600.
  ids.A = await start('approval-flow', { title: 'Needs review' });
  for (const k of ['B1', 'B2', 'B3']) ids[k] = await start('wait-flow', { model: 'marketplace', title: `Market ${k}`, lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] });
  ids.C = await start('wait-flow', { title: 'Paid one' });
  await t.call('POST', `/api/v1/orders/${ids.C}/events`, { event: 'payment.received' });
  ids.D = await start('failing-flow', { title: 'Broken one' });
  ids.E = await start('wait-flow', { model: 'b2b', title: 'Big one', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 600 }] });
  await t.service.ctx.db.query("UPDATE stock_levels SET on_hand = 1 WHERE sku = 'TEE-BLK-M'");
});
afterAll(async () => {
  await t?.close();
});

const ask = (text: string, as: Principal = operator, context?: Record<string, unknown>) =>
  t.service.ctx.operations.call('chat', as, { text, ...(context ? { context } : {}) }, { ip: null }) as Promise<any>;

type Case = [question: string | (() => string), tool: string | null, expected: RegExp | (() => RegExp), context?: () => Record<string, unknown>];
const q = (f: (i: typeof ids) => string) => () => f(ids);

const CASES: Case[] = [
  // needs_attention
  ['what needs attention?', 'needs_attention', /^1 approval is open/],
  ['anything urgent?', 'needs_attention', /1 approval is open/],
  ['What should I look at today', 'needs_attention', /1 order failed or rolled back in the last 3 days/],
  ['whats on fire', 'needs_attention', /approval/],
  ['show me the problems', 'needs_attention', /approval/],
  ['needs attentoin?', 'needs_attention', /1 approval is open/],
  // order_state
  [q((i) => `why is order ${i.A} stuck?`), 'get_order', /waits for an approval \(Review Needs review, assigned to finance\)/],
  [q((i) => `status of ${i.A}`), 'get_order', /is waiting/],
  [q((i) => `what is ${i.A} waiting for`), 'get_order', /approved leads to done/],
  [q((i) => `${i.A}?`), 'get_order', /Order ord_/],
  [q((i) => `tell me about order ${i.B1}`), 'get_order', /waits for the event payment\.received/],
  [q((i) => `where is ${i.C}`), 'get_order', /is completed/],
  [q((i) => `why did ${i.D} fail`), 'get_order', /is failed/],
  [q((i) => `whats the state of ${i.E}`), 'get_order', /is waiting/],
  // find_orders
  ['how many orders are waiting?', 'find_orders', /^5 orders match/],
  ['how many marketplace orders are waiting on sellers since Monday?', 'find_orders', /^3 orders match/],
  ['count the marketplace orders', 'find_orders', /^3 orders match/],
  ['marketplace ordrs waiting', 'find_orders', /^3 orders match/],
  ['show failed orders', 'find_orders', () => new RegExp(`^1 order matches.*${ids.D}`)],
  ['list completed orders', 'find_orders', () => new RegExp(`^1 order matches.*${ids.C}`)],
  ['total of orders over $500', 'find_orders', /^1 order matches.*600\.00 USD in all/],
  ['orders under $10', 'find_orders', /^3 orders match.*28\.50 USD in all/],
  ['orders between $20 and $30', 'find_orders', /^3 orders match/],
  ['how many b2b orders', 'find_orders', () => new RegExp(`^1 order matches.*${ids.E}`)],
  ['orders created today', 'find_orders', /^7 orders match/],
  ['orders since yesterday', 'find_orders', /^7 orders match/],
  ['how many orders before yesterday', 'find_orders', /^No order matches/],
  ['total revenue of completed orders', 'find_orders', /25\.00 USD in all/],
  ['cancelled orders?', 'find_orders', /^No order matches \(status cancelled\)/],
  ['orders via the api channel', 'find_orders', /^7 orders match/],
  ['show me the pending ones', 'find_orders', /^5 orders match/],
  ['pending orders over 100 dollars', 'find_orders', /^1 order matches/],
  ['and the completed ones?', 'find_orders', /^No order matches \(status completed, model marketplace/, () => ({ lastQuery: { model: 'marketplace', status: 'waiting' } })],
  ['what about failed?', 'find_orders', /^No order matches \(status failed, model marketplace/, () => ({ lastQuery: { model: 'marketplace' } })],
  // low_stock
  ['which products are low on stock?', 'find_products', /TEE-BLK-M \(\d+ available/],
  ["what's low on inventory", 'find_products', /TEE-BLK-M/],
  ['products below reorder point', 'find_products', /at or below the reorder point/],
  ['stock of MUG-1', 'find_products', /^MUG-1 \(Stoneware mug\): \d+ on hand/],
  ['how much MUG-1 do we have', 'find_products', /^MUG-1 \(Stoneware mug\)/],
  ['inventroy low?', 'find_products', /TEE-BLK-M/],
  // flows
  ['what flows are there?', 'list_flows', /flows: .*approval-flow/],
  ['list the flows', 'list_flows', /wait-flow/],
  ['show the workflows', 'list_flows', /failing-flow/],
  ['show flow approval-flow', 'get_flow', /Finance review/],
  ['what steps are in the wait-flow flow', 'get_flow', /wait-flow/],
  // writes: proposals only
  [q((i) => `approve order ${i.A}`), 'decide_approval', /^Approve Review Needs review on order ord_\w+ \(approved leads to done\)\?/],
  ['approve it', 'decide_approval', /^Approve /, () => ({ lastOrderId: ids.A })],
  [q((i) => `reject ${i.A}`), 'decide_approval', /^Reject .*rejected leads to no/],
  [q((i) => `decline the approval on ${i.A}`), 'decide_approval', /^Reject /],
  [q((i) => `cancel order ${i.B1}`), 'cancel_order', () => new RegExp(`^Cancel order ${ids.B1} \\(now waiting\\)`)],
  [q((i) => `please cancle ${i.B2}`), 'cancel_order', () => new RegExp(`^Cancel order ${ids.B2}`)],
  ['cancel it', 'cancel_order', () => new RegExp(`^Cancel order ${ids.B3}`), () => ({ lastOrderId: ids.B3 })],
  [q((i) => `deliver payment.received to ${i.B1}`), 'deliver_event', /^Deliver the event payment\.received to order/],
  [q((i) => `record event payment.received for ${i.B2}`), 'deliver_event', /payment\.received/],
  // start_return (contract 18): the SKU and quantity read from the question, 1 unit when none is said.
  [q((i) => `return 2 MUG-1 from order ${i.C}`), 'start_return', () => new RegExp(`^Start a return of 2 × MUG-1 from order ${ids.C}\\?`)],
  [q((i) => `the buyer returned MUG-1 x 3 on ${i.C}`), 'start_return', /^Start a return of 3 × MUG-1 from order/],
  ['refund 1 unit of MUG-1 on it', 'start_return', () => new RegExp(`^Start a return of 1 × MUG-1 from order ${ids.C}`), () => ({ lastOrderId: ids.C })],
  [q((i) => `returns of MUG-1 for ${i.C}`), 'start_return', /^Start a return of 1 × MUG-1 /],
  ['publish the approval flow', 'publish_flow', /^Publish the draft of approval-flow \(approval-flow\) as version 2\?/],
  ['move the orders of the approval flow from version 1 to version 2', 'migrate_orders', /^Move the live orders of approval-flow from version 1 to version 2\?/],
  ['migrate the approval flow orders off v1', 'migrate_orders', /^Move the live orders of approval-flow from version 1 to the latest version\?/],
  ['run the stock review', 'run_stock_review', /^Run the stock review now\?/],
  ['start a stock check now', 'run_stock_review', /^Run the stock review now\?/],
  [q((i) => `approve ${i.C}`), 'get_order', /is not waiting for an approval \(it is completed\)/],
  // flow changes: drafted, nothing saved
  ['add an approval before capture in the storefront flow', 'propose_flow_change', /Nothing was saved/],
  ['remove the fraud check from the storefront flow', 'propose_flow_change', /Nothing was saved/],
  ['wait 3 days for sellers in the marketplace flow', 'propose_flow_change', /Nothing was saved|Nothing changed/],
  // not understood
  ['hello', null, /^I did not understand that\. You can ask/],
  ['tell me a joke', null, /You can ask/],
  ['what is the meaning of life', null, /You can ask/],
  ['asdfgh', null, /what needs attention\?/],
];

describe('chat without a language model (contract section 11)', () => {
  it(`has at least 60 phrasings`, () => expect(CASES.length).toBeGreaterThanOrEqual(60));

  for (const [question, tool, expected, context] of CASES) {
    const label = typeof question === 'string' ? question : question().replace(/undefined|ord_\w+/g, 'ord_…');
    it(`"${label}" calls ${tool ?? 'nothing'}`, async () => {
      const answer = await ask(typeof question === 'string' ? question : question(), operator, context?.());
      expect(answer.tool, answer.text).toBe(tool);
      expect(answer.text).toMatch(typeof expected === 'function' ? expected() : expected);
      if (['decide_approval', 'cancel_order', 'start_return', 'deliver_event', 'publish_flow', 'migrate_orders', 'run_stock_review'].includes(tool ?? '')) expect(answer.proposal?.skill).toBe(tool);
      else expect(answer.proposal).toBeNull();
    });
  }

  it('no write phrasing changed anything: every proposal is still only a proposal', async () => {
    const status = async (k: string) => (await t.call('GET', `/api/v1/orders/${ids[k]}`)).body.status;
    expect([await status('A'), await status('B1'), await status('B2'), await status('B3')]).toEqual(['waiting', 'waiting', 'waiting', 'waiting']);
    expect((await t.service.ctx.db.query('SELECT count(*)::int AS n FROM order_returns')).rows).toEqual([{ n: 0 }]);
    expect((await t.call('GET', '/api/v1/flows/approval-flow')).body.flow.publishedVersion).toBe(1);
    // The drafted flow changes saved nothing: the storefront draft is still its published version.
    const storefront = (await t.call('GET', '/api/v1/flows/tpl-storefront-order')).body;
    expect(storefront.draft.graph).toEqual(storefront.versions.at(-1).graph);
  });

  it('runs on the pinned Friday, not on the real calendar', async () => {
    const now: number = t.service.ctx.clock.now();
    expect(new Date(now).toISOString().slice(0, 10)).toBe('2035-11-30');
  });

  it('what a viewer is offered to ask leaves out the writes', async () => {
    const answer = await ask('hello', viewer);
    expect(answer.text).toContain('what needs attention?');
    expect(answer.text).not.toContain('cancel order');
  });
});

describe('a weekday in chat is its latest occurrence on or before today, in UTC (contract section 11)', () => {
  // Runs last: it moves the clock a day at a time from the Friday the seven orders were created on.
  const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  it('on each day from that Friday to the next Thursday, "since <weekday>" counts the marketplace orders created that Friday', async () => {
    const counts: string[] = [];
    for (let day = 0; day < 7; day++) {
      if (day > 0) await t.advance(DAY);
      const today = new Date(t.service.ctx.clock.now()).getUTCDay();
      for (const named of [1, 5, today]) {
        const answer = await ask(`how many marketplace orders since ${WEEKDAYS[named]}?`);
        counts.push(`${WEEKDAYS[today]}: since ${WEEKDAYS[named]} ${answer.data.count}`);
      }
    }
    // The three marketplace orders (B1-B3; the daily stock review adds reorders of another model on the way).
    // Friday..Sunday: Monday was before the orders (4..6 days back); from the next Monday on it is after them.
    // Friday (the day they were created) stays the latest Friday until the next one; "since today" is today only.
    expect(counts).toEqual([
      'Friday: since Monday 3', 'Friday: since Friday 3', 'Friday: since Friday 3',
      'Saturday: since Monday 3', 'Saturday: since Friday 3', 'Saturday: since Saturday 0',
      'Sunday: since Monday 3', 'Sunday: since Friday 3', 'Sunday: since Sunday 0',
      'Monday: since Monday 0', 'Monday: since Friday 3', 'Monday: since Monday 0',
      'Tuesday: since Monday 0', 'Tuesday: since Friday 3', 'Tuesday: since Tuesday 0',
      'Wednesday: since Monday 0', 'Wednesday: since Friday 3', 'Wednesday: since Wednesday 0',
      'Thursday: since Monday 0', 'Thursday: since Friday 3', 'Thursday: since Thursday 0',
    ]);
  });
});
