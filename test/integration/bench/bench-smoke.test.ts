// CI smoke of `npm run bench` (issue "Performance": the bench runs in CI in a small mode and asserts
// correctness only): the marketplace and steps scenarios against the real service over HTTP, every order
// completed exactly once, writing-transaction and byte counting work; never a timing assertion.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { parseBenchOptions } from '../../../bench/bench-options.js';
import { runBench } from '../../../bench/run-bench.js';

const ORDERS = 200;
const STEPS_ORDERS = 50;

describe('bench smoke (marketplace, small mode)', () => {
  it(`${ORDERS} marketplace orders through POST /orders and seller events: all completed, effects counted once, stock moved exactly`, async () => {
    const options = parseBenchOptions(
      ['--scenario', 'marketplace', '--orders', String(ORDERS), '--concurrency', '8', '--rate', '30', '--rate-seconds', '2', '--webhooks', '1', '--no-results', '--quiet'],
      { TEST_DATABASE_URL: inject('pgAdminUrl'), TEST_REDIS_URL: process.env.TEST_REDIS_URL },
    );
    expect(options).not.toBeNull();
    const run = await runBench(options!, `smoke-${randomBytes(12).toString('hex')}`);
    const [result] = run.results;
    expect(result.scenario).toBe('marketplace');
    expect(result.problems).toEqual([]);
    const data = result.data as any;
    // Closed loop: every order completed, each with exactly the effects of one completed order.
    expect(data.check.orders).toBe(ORDERS);
    expect(data.check.completed).toBe(ORDERS);
    expect(data.check.duplicates).toEqual([]);
    expect(data.check.stock).toEqual([]);
    expect(data.check.expected).toMatchObject({ payouts: 2, seller_orders: 3, 'outbox:order.completed': 1, 'step:payout': 1 });
    // Open loop: the same.
    expect(data.checkOpen.completed).toBe(data.checkOpen.orders);
    expect(data.checkOpen.duplicates).toEqual([]);
    // The open loop again with a second process keeping one core busy: its orders complete exactly once too.
    expect(data.checkBusy.completed).toBe(data.checkBusy.orders);
    expect(data.checkBusy.duplicates).toEqual([]);
    expect(data.openLoopBusy.event.count).toBeGreaterThan(0);
    // The webhook subscriber got every event once; nothing stays in memory between commands.
    expect(data.webhookDeliveries).toBeGreaterThan(0);
    expect(data.liveOrdersIdle).toBe(0);
    // The counters ran (their values are the bench's business, not the test's).
    expect(data.writingTxPerOrder).toBeGreaterThan(0);
    expect(data.closedLoop.create.count).toBe(ORDERS);
    expect(data.closedLoop.event.count).toBe(2 * ORDERS);
  }, 180_000);
});

describe('bench smoke (steps, small mode)', () => {
  it(`${STEPS_ORDERS} orders of each steps variant (logic, commerce): each completed with every node succeeded once, stock moved exactly`, async () => {
    const options = parseBenchOptions(['--scenario', 'steps', '--orders', String(STEPS_ORDERS), '--concurrency', '8', '--no-results', '--quiet'], {
      TEST_DATABASE_URL: inject('pgAdminUrl'),
      TEST_REDIS_URL: process.env.TEST_REDIS_URL,
    });
    expect(options).not.toBeNull();
    const run = await runBench(options!, `smoke-${randomBytes(12).toString('hex')}`);
    expect(run.results.map((r) => r.scenario)).toEqual(['steps (logic)', 'steps (commerce)']);
    for (const result of run.results) {
      expect(result.problems, result.scenario).toEqual([]);
      const data = result.data as any;
      expect(data.check.orders).toBe(STEPS_ORDERS);
      expect(data.check.completed).toBe(STEPS_ORDERS);
      expect(data.check.completedOnce).toBe(STEPS_ORDERS);
      expect(data.check.duplicates).toEqual([]);
      expect(data.check.stock).toEqual([]);
      // One event per order, delivered to the wait the POST left open.
      expect(data.create.count).toBe(STEPS_ORDERS);
      expect(data.event.count).toBe(STEPS_ORDERS);
      // The counters ran (their values are the bench's business, not the test's).
      expect(data.writingTxPerOrder).toBeGreaterThan(0);
      expect(data.bytesPerOrder).toBeGreaterThan(0);
    }
    const [logic, commerce] = run.results.map((r) => r.data as any);
    expect(logic.check.expected).toMatchObject({ 'status:completed': 1, 'node:branch_6:succeeded:runs=1': 1, 'waits_received:wait': 1, 'outbox:order.completed': 1 });
    expect(commerce.check.expected).toMatchObject({ 'status:completed': 1, 'node:payout:succeeded:runs=1': 1, payouts: 1, shipments: 1, 'seller_orders:accepted': 1 });
  }, 180_000);
});
