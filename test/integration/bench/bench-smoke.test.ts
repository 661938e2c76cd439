// CI smoke of `npm run bench` (issue "Performance": the bench runs in CI in a small mode and asserts
// correctness only): the marketplace scenario against the real service over HTTP, every order completed
// exactly once, writing-transaction counting works; never a timing assertion.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { parseBenchOptions } from '../../../bench/bench-options.js';
import { runBench } from '../../../bench/run-bench.js';

const ORDERS = 200;

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
    // The webhook subscriber got every event once; nothing stays in memory between commands.
    expect(data.webhookDeliveries).toBeGreaterThan(0);
    expect(data.liveOrdersIdle).toBe(0);
    // The counters ran (their values are the bench's business, not the test's).
    expect(data.writingTxPerOrder).toBeGreaterThan(0);
    expect(data.closedLoop.create.count).toBe(ORDERS);
    expect(data.closedLoop.event.count).toBe(2 * ORDERS);
  }, 180_000);
});
