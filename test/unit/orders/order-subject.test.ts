// The commerce order as the engine's subject (contract 18 among it): a return's run files only order.refunded, under its order.
import { describe, expect, it } from 'vitest';
import { outboxId, outboxRows, type OutboxEvent } from '../../../src/engine/runtime/outbox.js';
import { ordersSubject } from '../../../src/orders/order-subject.js';

const events: OutboxEvent[] = [
  { event: 'order.refunded', nodeId: 'refund', run: 1, data: { node: { id: 'refund' } } },
  { event: 'order.completed', nodeId: 'completed', run: 1, data: { outcome: 'completed' } },
];

const FACTS = { model: 'b2c', channel: 'web', externalId: null, title: null, customerId: null, contactEmail: null, currency: 'EUR', fxRate: 0.5, subtotal: 1000, tax: 100, total: 1100, returnOf: null };

/** The outbox rows a slice of `orderId` with these facts writes, as the run host files them through the subject. */
function rowsOf(orderId: string, facts: Record<string, unknown>, evts = events) {
  const summary = ordersSubject.summary(orderId, facts);
  return outboxRows(orderId, 1, evts, summary, (event, data) => ordersSubject.fileEvent!(orderId, facts, event, data));
}

describe('the orders subject', () => {
  it('reads the commerce columns of an orders row as the facts steps see (minor units, the rate as a number)', () => {
    const row = { model: 'b2c', channel: 'web', external_id: 'X', title: 'T', customer_id: 'c', contact_email: 'a@b.c', currency: 'EUR', fx_rate: '0.5', subtotal_minor: '1000', tax_minor: '100', total_minor: '1100', return_of: null };
    expect(ordersSubject.read(row)).toEqual({ ...FACTS, externalId: 'X', title: 'T', customerId: 'c', contactEmail: 'a@b.c' });
  });

  it('the summary events carry: amounts as decimals in the order currency, baseTotal in USD at the order rate', () => {
    expect(ordersSubject.summary('ord_a', FACTS)).toEqual({ id: 'ord_a', model: 'b2c', channel: 'web', externalId: null, title: null, customerId: null, currency: 'EUR', subtotal: 10, tax: 1, total: 11, fxRate: 0.5, baseTotal: 22 });
  });

  it('only the totals are columns a step may change; any other fact is refused', () => {
    expect(ordersSubject.columns({ subtotal: 1, tax: 2, total: 3 })).toEqual({ subtotal_minor: 1, tax_minor: 2, total_minor: 3 });
    expect(() => ordersSubject.columns({ currency: 'USD' })).toThrow(/currency/);
  });

  it('an order files every event of its run under itself; its change concerns no other order', () => {
    expect(rowsOf('ord_a', FACTS).map((r) => [r.event, r.orderId])).toEqual([['order.refunded', undefined], ['order.completed', undefined]]);
    expect(ordersSubject.related!(FACTS)).toBeNull();
  });

  it("a return sends no order.* event of its own: only order.refunded, for its order (orderId, data.returnId), id from the return's run", () => {
    const ret = { ...FACTS, returnOf: 'ord_p' };
    const rows = rowsOf('ord_r', ret);
    expect(rows).toEqual([
      { id: outboxId('ord_r', 1, events[0]), event: 'order.refunded', orderId: 'ord_p', data: { order: ordersSubject.summary('ord_r', ret), node: { id: 'refund' }, returnId: 'ord_r' } },
    ]);
    expect(rows[0].data.order).toMatchObject({ returnOf: 'ord_p' });
    // The step may name the order's summary: it wins over the return's.
    const named = rowsOf('ord_r', ret, [{ ...events[0], data: { order: { id: 'ord_p' } } }]);
    expect(named[0].data.order).toEqual({ id: 'ord_p' });
    // Two returns of one order: two deliveries.
    expect(rowsOf('ord_r2', ret)[0].id).not.toBe(rows[0].id);
    // Its changes concern its order too (the order's page shows its returns).
    expect(ordersSubject.related!(ret)).toBe('ord_p');
  });
});
