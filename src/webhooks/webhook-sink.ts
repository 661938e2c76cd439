// Outbox sink: one delivery row (and its first-attempt guard timer) per order event and matching subscription.
import type { PoolClient } from 'pg';
import type { Clock } from '../platform/clock.js';
import type { OutboxRow, OutboxSink } from '../engine/outbox/outbox-dispatcher.js';
import { schedule } from '../engine/scheduler/timer-store.js';
import { deliveryId } from './delivery-store.js';
import { attemptTimer, guardDueAt } from '../engine/outbox/attempt-schedule.js';
import { DELIVERY_TIMER } from './delivery-schedule.js';
import type { DeliveryWorker, NewDelivery } from './delivery-worker.js';
import { subscribedTo } from './webhook-events.js';

/** Spec "Delivery format": the body every attempt sends (and signs) byte for byte. */
export interface DeliveryBody {
  id: string;
  event: string;
  occurredAt: number;
  orderId: string;
  data: Record<string, unknown>;
}

export function webhookSink(deps: { clock: Clock; worker: DeliveryWorker; timeoutMs: number }): OutboxSink {
  return {
    name: 'webhooks',
    // The subscriptions come with the claimed batch (read by the dispatcher's claim statement).
    alongside: `(SELECT coalesce(json_agg(json_build_object('id', s.id, 'events', s.events) ORDER BY s.created_at, s.id), '[]'::json)
                   FROM webhook_subscriptions s)`,
    async handle(tx: PoolClient, rows: OutboxRow[], alongside: unknown): Promise<void> {
      const subs = alongside as { id: string; events: string[] }[];
      if (subs.length === 0) return;
      // The dispatcher hands rows over in outbox.seq order: the order the events were written in.
      const ordered = rows;
      const planned: { id: string; subscription_id: string; outbox_id: string; order_id: string; event: string; body: string }[] = [];
      for (const row of ordered)
        for (const sub of subs) {
          if (!subscribedTo(sub.events, row.event)) continue;
          const id = deliveryId(row.id, sub.id);
          const body: DeliveryBody = { id, event: row.event, occurredAt: row.occurredAt, orderId: row.orderId, data: row.data };
          planned.push({ id, subscription_id: sub.id, outbox_id: row.id, order_id: row.orderId, event: row.event, body: JSON.stringify(body) });
        }
      if (planned.length === 0) return;
      const now = deps.clock.now();
      // ORDER BY ordinality: seq follows the outbox order, which is the order events happened in.
      const { rows: inserted } = await tx.query<{ id: string; seq: string; subscription_id: string; order_id: string }>(
        `INSERT INTO webhook_deliveries (id, subscription_id, outbox_id, order_id, event, body, status, created_at, updated_at)
         SELECT d.id, d.subscription_id, d.outbox_id, d.order_id, d.event, d.body, 'pending', $2, $2
           FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (id text, subscription_id text, outbox_id text, order_id text, event text, body text))
                WITH ORDINALITY AS d(id, subscription_id, outbox_id, order_id, event, body, n)
          ORDER BY d.n
         ON CONFLICT (id) DO NOTHING
         RETURNING id, seq, subscription_id, order_id`,
        [JSON.stringify(planned), now],
      );
      const firstGuardDueAt = guardDueAt(now, deps.timeoutMs, 0);
      const created: NewDelivery[] = [];
      for (const d of inserted) {
        await schedule(tx, attemptTimer(DELIVERY_TIMER, d.id, 1, firstGuardDueAt), now);
        created.push({ id: d.id, seq: Number(d.seq), subscriptionId: d.subscription_id, orderId: d.order_id, guardDueAt: firstGuardDueAt });
      }
      deps.worker.afterDispatch(rows.map((r) => r.id), created);
    },
  };
}
