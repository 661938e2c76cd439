// Port `notifications` in a simulation: messages kept in memory, one per recipient; none is ever queued for sending.
import { newCommerceId } from '../../domain/commerce-ids.js';
import type { NotificationsPort } from '../ports/notifications-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedNotificationsPort(ledger: SimulatedLedger): NotificationsPort {
  return {
    queue: (message) => {
      const ids = message.recipients.map((to) => {
        const row = ledger.insert(ledger.notifications, {
          id: newCommerceId('ntf'),
          orderId: message.orderId,
          nodeId: message.nodeId,
          audience: message.audience,
          recipient: to.recipient,
          address: to.address,
          subject: message.subject,
          body: message.body,
        });
        return row.id;
      });
      return Promise.resolve(ids);
    },
  };
}
