// The daily stock review (issue "Stock review"): a tpl-reorder order per first-party SKU at or below its reorder
// point, at most one open reorder per SKU, run by a self-rescheduling durable timer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommerceHarness, DAY, type CommerceHarness } from './commerce-harness.js';
import { runStockReview } from '../../../src/orders/stock-review.js';
import { nextReviewAt, STOCK_REVIEW_TIMER_KIND } from '../../../src/orders/stock-review-job.js';

let h: CommerceHarness;
beforeAll(async () => {
  h = await startCommerceHarness();
});
afterAll(async () => {
  await h?.close();
});

const review = () => runStockReview({ db: h.t.service.ctx.db, clock: h.t.service.ctx.clock, runtime: h.engine.runtime });

describe('stock review', () => {
  it('nothing is low in the demo workspace: no reorder', async () => {
    expect(await review()).toEqual({ started: [], alreadyOpen: [], skipped: null });
  });

  it('a SKU at its reorder point gets one reorder (reorderQty, least-stocked warehouse); a second review adds none', async () => {
    // LAMP-OAK: reorder point 5, reorder qty 20; free stock 15 + 4 -> make it 3 + 2.
    await h.rows("UPDATE stock_levels SET on_hand = CASE location_id WHEN 'loc_main' THEN 3 ELSE 2 END WHERE sku = 'LAMP-OAK'");
    const first = await review();
    expect(first.started).toEqual([expect.objectContaining({ sku: 'LAMP-OAK', qty: 20, locationId: 'loc_west', available: 5, reorderPoint: 5 })]);
    const orderId = first.started[0]!.orderId;
    let s = await h.state(orderId);
    expect(s.order).toMatchObject({ model: 'replenishment', channel: 'schedule', flowId: 'tpl-reorder', total: 1799.8 });
    expect(s.status).toBe('waiting');
    expect(s.waits).toEqual([expect.objectContaining({ nodeId: 'wait_goods', event: 'goods.received' })]);
    expect(await review()).toEqual({ started: [], alreadyOpen: ['LAMP-OAK'], skipped: null });

    // Goods arrive: stock is booked in at the receiving warehouse; the SKU is no longer low.
    await h.engine.runtime.deliverEvent(orderId, 'goods.received', {});
    s = await h.state(orderId);
    expect(s.status).toBe('completed');
    expect(await h.stock('LAMP-OAK', 'loc_west')).toEqual({ onHand: 22, reserved: 0 });
    expect(await review()).toEqual({ started: [], alreadyOpen: [], skipped: null });
  });

  it('reserved units count as gone; third-party and digital products are never reordered', async () => {
    await h.rows("UPDATE stock_levels SET reserved = on_hand - 1 WHERE sku IN ('CHAIR-ERG', 'PAN-CAST-10')");
    await h.rows("UPDATE products SET reorder_point = 50 WHERE sku IN ('PAN-CAST-10', 'GIFT-50')"); // seller_acme's; digital
    const res = await review();
    expect(res.started.map((x) => x.sku)).toEqual(['CHAIR-ERG']);
    expect(res.started[0]).toMatchObject({ available: 2, qty: 10 });
  });

  it('runs daily at 06:00 UTC as a durable timer that schedules the next day', async () => {
    const now = h.t.service.ctx.clock.now();
    const pending = await h.rows('SELECT due_at FROM timers WHERE kind = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [STOCK_REVIEW_TIMER_KIND]);
    expect(pending).toHaveLength(1);
    const due = Number(pending[0].due_at);
    expect(due).toBe(nextReviewAt(now));
    expect(due % DAY).toBe(6 * 3_600_000);
    await h.rows("UPDATE stock_levels SET on_hand = 1 WHERE sku = 'TEE-BLK-M'");
    await h.t.advance(due - now + 1);
    const fired = await h.rows('SELECT due_at, fired_at FROM timers WHERE kind = $1 ORDER BY due_at', [STOCK_REVIEW_TIMER_KIND]);
    expect(fired.map((t) => [Number(t.due_at), t.fired_at !== null])).toEqual([[due, true], [due + DAY, false]]);
    const reorders = await h.rows("SELECT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.flow_id = 'tpl-reorder' AND l.sku = 'TEE-BLK-M'");
    expect(reorders).toHaveLength(1);
    await h.t.advance(DAY);
    expect(await h.rows("SELECT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.flow_id = 'tpl-reorder' AND l.sku = 'TEE-BLK-M'")).toHaveLength(1);
  });

  it('a reorder whose goods never arrive fails after 14 days and its purchase order is cancelled', async () => {
    const [order] = await h.rows("SELECT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.flow_id = 'tpl-reorder' AND l.sku = 'TEE-BLK-M'");
    await h.t.advance(14 * DAY);
    const s = await h.state(order.id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Goods not received within 14 days');
    expect(await h.rows('SELECT status FROM purchase_orders WHERE order_id = $1', [order.id])).toEqual([{ status: 'cancelled' }]);
  });

  it('a reorder above $10,000 waits for approval', async () => {
    await h.rows("UPDATE products SET reorder_qty = 40 WHERE sku = 'CHAIR-ERG'");
    await h.rows("UPDATE orders SET status = 'cancelled' WHERE flow_id = 'tpl-reorder'"); // close earlier ones
    const res = await review();
    const chair = res.started.find((x) => x.sku === 'CHAIR-ERG')!;
    const s = await h.state(chair.orderId);
    expect(s.order.total).toBe(13960);
    expect(s.waits).toEqual([expect.objectContaining({ nodeId: 'approval', assignee: 'inventory-manager' })]);
  });
});
