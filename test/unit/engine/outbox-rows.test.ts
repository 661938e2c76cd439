// The outbox rows a slice writes (contract 18): a return's run sends only order.refunded, as its parent's event, with an id of its own run.
import { describe, expect, it } from 'vitest';
import { outboxId, outboxRows } from '../../../src/engine/runtime/outbox.js';

const events = [
  { event: 'order.refunded', nodeId: 'refund', run: 1, data: { node: { id: 'refund' } } },
  { event: 'order.completed', nodeId: 'completed', run: 1, data: { outcome: 'completed' } },
];

describe('outbox rows', () => {
  it('an order sends every event of its run as its own, with the order summary', () => {
    const rows = outboxRows('ord_a', 2, events, { id: 'ord_a' });
    expect(rows).toEqual([
      { id: outboxId('ord_a', 2, events[0]), event: 'order.refunded', data: { order: { id: 'ord_a' }, node: { id: 'refund' } } },
      { id: outboxId('ord_a', 2, events[1]), event: 'order.completed', data: { order: { id: 'ord_a' }, outcome: 'completed' } },
    ]);
  });

  it("a return sends no order.* event of its own: only order.refunded, for its parent (orderId, data.returnId), id from the return's run", () => {
    const rows = outboxRows('ord_r', 1, events, { id: 'ord_r', returnOf: 'ord_p' });
    expect(rows).toEqual([
      { id: outboxId('ord_r', 1, events[0]), event: 'order.refunded', orderId: 'ord_p', data: { order: { id: 'ord_r', returnOf: 'ord_p' }, node: { id: 'refund' }, returnId: 'ord_r' } },
    ]);
    // The step may name the parent's summary: it wins over the return's.
    const named = outboxRows('ord_r', 1, [{ ...events[0], data: { order: { id: 'ord_p' } } }], { id: 'ord_r', returnOf: 'ord_p' });
    expect(named[0].data.order).toEqual({ id: 'ord_p' });
    // Two returns of one order: two deliveries.
    expect(outboxRows('ord_r2', 1, events, { id: 'ord_r2', returnOf: 'ord_p' })[0].id).not.toBe(rows[0].id);
  });
});
