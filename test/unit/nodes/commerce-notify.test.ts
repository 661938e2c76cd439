// Tests for `commerce.notify` over its ports (docs/commerce.md "Ports", "Node catalogue"): who a message goes to and
// what is queued, with no database.
import { describe, expect, it } from 'vitest';
import { commerceNotify, type NotifyParams } from '../../../src/nodes/commerce-notify.js';
import type { NewNotifications } from '../../../src/commerce/notifications-repo.js';
import type { SellerProfile } from '../../../src/commerce/catalogue-repo.js';
import type { OrderView, StepResult } from '../../../src/engine/node-type.js';
import { stepContext, testOrder, testPorts, type SomePorts } from './step-context.js';

const seller = (id: string, email: string | null): SellerProfile => ({ id, name: id, commission: 0.1, autoAccept: false, active: true, email });

/** Runs commerce.notify with these ports (plus a notifications port that records what it queues). */
async function notify(params: NotifyParams, ports: SomePorts, order: Partial<OrderView> = {}, vars: Record<string, unknown> = {}) {
  const queued: NewNotifications[] = [];
  const ctx = stepContext(params, {
    order: testOrder(order),
    vars,
    ports: testPorts({
      ...ports,
      notifications: {
        queue: (message) => {
          queued.push(message);
          return Promise.resolve(message.recipients.map((_r, i) => `ntf_${i + 1}`));
        },
      },
    }),
  });
  return { result: (await commerceNotify.run!(ctx)) as StepResult, queued };
}

describe('commerce.notify', () => {
  it('to seller: every pending seller at the email the catalogue gives (none known: no address)', async () => {
    const { result, queued } = await notify(
      { to: 'seller' },
      { catalogue: { sellersById: () => Promise.resolve(new Map([['seller_acme', seller('seller_acme', 'acme@example.com')]])) } },
      {},
      { pendingSellers: ['seller_acme', 'seller_bolt'] },
    );
    expect(queued).toEqual([
      expect.objectContaining({
        orderId: 'ord_1',
        nodeId: 'node',
        audience: 'seller',
        subject: 'Order ord_1 is waiting for your answer',
        recipients: [{ recipient: 'seller_acme', address: 'acme@example.com' }, { recipient: 'seller_bolt', address: null }],
      }),
    ]);
    expect(result).toEqual({
      branch: 'ok',
      output: { to: 'seller', recipients: ['seller_acme', 'seller_bolt'], notificationIds: ['ntf_1', 'ntf_2'] },
      summary: 'Notified seller_acme, seller_bolt',
    });
  });

  it("to customer: the contact email first, else the customer account's email (the customers port)", async () => {
    const asked: string[] = [];
    const customers = { email: (id: string) => (asked.push(id), Promise.resolve('acct@example.com')) };
    const withContact = await notify({ to: 'customer' }, { customers }, { contactEmail: 'buyer@example.com', customerId: 'cust_1' });
    expect(withContact.queued[0].recipients).toEqual([{ recipient: 'buyer@example.com', address: 'buyer@example.com' }]);
    expect(asked).toEqual([]);
    const withAccount = await notify({ to: 'customer', subject: 'Hello {{order.id}}' }, { customers }, { customerId: 'cust_1' });
    expect(asked).toEqual(['cust_1']);
    expect(withAccount.queued[0]).toMatchObject({ subject: 'Hello ord_1', recipients: [{ recipient: 'acct@example.com', address: 'acct@example.com' }] });
  });

  it('to operations: every enabled operator; with none, one row addressed to nobody that stays visible as queued', async () => {
    const some = await notify({ to: 'operations' }, { people: { operatorEmails: () => Promise.resolve(['a@example.com', 'b@example.com']) } });
    expect(some.queued[0].recipients).toEqual([{ recipient: 'a@example.com', address: 'a@example.com' }, { recipient: 'b@example.com', address: 'b@example.com' }]);
    const none = await notify({ to: 'operations' }, { people: { operatorEmails: () => Promise.resolve([]) } });
    expect(none.queued[0].recipients).toEqual([{ recipient: 'operations', address: null }]);
  });

  it('nobody to notify: queues no recipient and says so', async () => {
    const { result, queued } = await notify({ to: 'seller' }, {}, {}, { pendingSellers: [] });
    expect(queued[0].recipients).toEqual([]);
    expect(result.summary).toBe('No seller to notify');
  });
});
