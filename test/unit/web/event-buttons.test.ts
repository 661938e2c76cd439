// The order page's event buttons (issue 35, newcomer walk item 8): each label names the action, never the event; the payloads are the spec's.
import { describe, expect, it } from 'vitest';
import { eventButtons } from '../../../src/web/dashboard/order-sections.js';

const buttons = (event: string) =>
  [...eventButtons(event, 25, 'USD').html.matchAll(/<button[^>]*data-payload="([^"]*)"[^>]*>([^<]*)<\/button>/g)].map((m) => ({
    label: m[2],
    payload: JSON.parse(m[1].replace(/&quot;/g, '"')) as unknown,
  }));

describe('event buttons', () => {
  it('a payment event: record the payment with the order total, or confirm it from the back office', () => {
    expect(buttons('payment.received')).toEqual([
      { label: 'Record payment of $25.00', payload: { source: 'dashboard', amount: 25 } },
      { label: 'Confirm payment from the back office', payload: { source: 'back-office' } },
    ]);
  });

  it('another event: one button named for what it records (not "Record payment (customer.collected)"), the event shown beside it', () => {
    expect(buttons('customer.collected')).toEqual([{ label: 'Record pickup by the customer', payload: { source: 'back-office' } }]);
    expect(buttons('gift.wrapped')[0].label).toBe('Record “gift wrapped”');
    expect(eventButtons('customer.collected', 25, 'USD').html).toContain('sends <code>customer.collected</code>');
    for (const event of ['customer.collected', 'goods.received', 'gift.wrapped']) for (const b of buttons(event)) expect(b.label).not.toContain(event);
  });
});
