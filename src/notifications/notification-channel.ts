// The notification channel port: what carries one message to one recipient (email over SMTP, a signed webhook).
import type { Queryable } from '../db/db.js';

/** Who a notification is for: the spec's recipient kinds (`customer` is the buyer's contact). */
export type NotificationAudience = 'seller' | 'customer' | 'operations' | 'approver';

/** One message to one recipient, as a channel sends it. */
export interface NotificationMessage {
  id: string;
  orderId: string;
  nodeId: string;
  audience: NotificationAudience;
  /** A seller id, an email address, an approval's assignee, or `operations`. */
  recipient: string;
  /** The email address the recipient is reached at; null when none is known. */
  address: string | null;
  subject: string;
  /** What is asked of the recipient (the step's rendered message). */
  body: string;
  createdAt: number;
}

/** How one attempt ended; `error` is kept in the delivery log and never carries a secret. */
export interface SendResult {
  ok: boolean;
  error: string | null;
}

export interface NotificationChannel {
  readonly name: 'email' | 'webhook';
  /**
   * For each message, in order: null when this channel can carry it now, else why not (no address,
   * nobody subscribed). Asked once per dispatch batch, inside the transaction that hands the
   * messages over, so what the answer reads (the subscriptions) is read once per batch.
   */
  refusals(q: Queryable, messages: readonly NotificationMessage[]): Promise<(string | null)[]>;
  /** One attempt; never throws for a delivery problem (it returns `ok: false`). */
  send(message: NotificationMessage): Promise<SendResult>;
}
