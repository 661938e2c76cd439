// The outbox rows a slice writes: each event's data carries the order summary, filed where the host's subject says, with an id of this run.
import { describe, expect, it } from 'vitest';
import { outboxId, outboxRows } from '../../../src/engine/runtime/outbox.js';

const events = [
  { event: 'order.refunded', nodeId: 'refund', run: 1, data: { node: { id: 'refund' } } },
  { event: 'order.completed', nodeId: 'completed', run: 1, data: { outcome: 'completed' } },
];

describe('outbox rows', () => {
  it('an order sends every event of its run as its own, with the order summary', () => {
    const rows = outboxRows('ord_a', 2, events, { id: 'ord_a' }, (_event, data) => ({ data }));
    expect(rows).toEqual([
      { id: outboxId('ord_a', 2, events[0]), event: 'order.refunded', data: { order: { id: 'ord_a' }, node: { id: 'refund' } } },
      { id: outboxId('ord_a', 2, events[1]), event: 'order.completed', data: { order: { id: 'ord_a' }, outcome: 'completed' } },
    ]);
  });

  it('the filing decides: an event filed under another order names it, one filed nowhere is not written, the id stays this run’s', () => {
    const rows = outboxRows('ord_r', 1, events, { id: 'ord_r' }, (event, data) => (event === 'order.refunded' ? { orderId: 'ord_p', data: { ...data, extra: true } } : null));
    expect(rows).toEqual([{ id: outboxId('ord_r', 1, events[0]), event: 'order.refunded', orderId: 'ord_p', data: { order: { id: 'ord_r' }, node: { id: 'refund' }, extra: true } }]);
  });
});
