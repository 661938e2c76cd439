// Subscribable event names (spec "Outbound events", contract 16): order.held is an order event a subscription may name or get through `*`.
import { describe, expect, it } from 'vitest';
import { subscribedTo, subscriptionEventsSchema } from '../../../src/webhooks/webhook-events.js';

describe('webhook event names', () => {
  it('contract 16: order.held is subscribable by name and reaches `*` subscribers like every order event', () => {
    expect(subscriptionEventsSchema.safeParse(['order.held']).success).toBe(true);
    expect(subscribedTo(['order.held'], 'order.held')).toBe(true);
    expect(subscribedTo(['*'], 'order.held')).toBe(true);
    expect(subscribedTo(['order.failed'], 'order.held')).toBe(false);
    // notification.requested still has to be named.
    expect(subscribedTo(['*'], 'notification.requested')).toBe(false);
    expect(subscriptionEventsSchema.safeParse(['order.holding']).success).toBe(false);
  });
});
