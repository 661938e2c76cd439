// The task status of a followed order: its state (spec table), a sentence saying what it waits for, and the waits as data.
import { TaskState } from '@a2a-js/sdk';
import type { Queryable } from '../db/db.js';
import { readOrderProgress } from '../orders/order-status.js';
import { stateOfOrderStatus } from './a2a-task-states.js';
import { eventReply } from '../nodes/event-payloads.js';

/** One open wait, as a reply to it needs it: approvals take `{ decision }`, events `{ event, payload }` (the fields the steps read, src/nodes/event-payloads.ts). */
export interface FollowedWait {
  nodeId: string;
  kind: 'approval' | 'event';
  title: string | null;
  event: string | null;
}

/** A held step (contract 16), as a reply to it needs it: `{ action: "retry" | "rollback" }`. */
export interface FollowedHold {
  nodeId: string;
  title: string;
  error: string;
}

export interface OrderTaskStatus {
  orderId: string;
  orderStatus: string;
  reason: string | null;
  state: TaskState;
  /** The status message's text: what the order is doing or waits for. */
  text: string;
  waits: FollowedWait[];
  holds: FollowedHold[];
  /** orders.updated_at this was read from. */
  updatedAt: number;
}

/** Reads the order's status and open waits (through the orders query module); null when the order does not exist. */
export async function readOrderTaskStatus(q: Queryable, orderId: string): Promise<OrderTaskStatus | null> {
  const progress = await readOrderProgress(q, orderId);
  if (!progress) return null;
  const { status, reason } = progress;
  const waits: FollowedWait[] = progress.waits.flatMap((w) =>
    w.kind === 'approval' || w.kind === 'event' ? [{ nodeId: w.nodeId, kind: w.kind, title: w.title, event: w.event }] : [],
  );
  const holds: FollowedHold[] = progress.holds.map((h) => ({ nodeId: h.nodeId, title: h.title, error: h.error }));
  let state = stateOfOrderStatus(status);
  // A run held only by a delay waits for no one: nothing a reply could give, so the task keeps working. A held step waits for a reply.
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED && waits.length === 0 && holds.length === 0) state = TaskState.TASK_STATE_WORKING;
  return { orderId, orderStatus: status, reason, state, text: statusText(orderId, status, reason, waits, holds), waits, holds, updatedAt: progress.updatedAt };
}

/** The status message's data part: the order, its status and waits, and its held steps when it has any (contract 16). */
export function orderStatusData(s: OrderTaskStatus): Record<string, unknown> {
  return { orderId: s.orderId, status: s.orderStatus, reason: s.reason, waits: s.waits, ...(s.holds.length ? { holds: s.holds } : {}) };
}

function statusText(orderId: string, status: string, reason: string | null, waits: FollowedWait[], holds: FollowedHold[]): string {
  const because = reason ? `: ${reason}` : '';
  switch (status) {
    case 'queued':
      return `Order ${orderId} is queued.`;
    case 'running':
      return `Order ${orderId} is running.`;
    case 'waiting': {
      if (waits.length === 0 && holds.length === 0) return `Order ${orderId} is waiting for a delay to pass.`;
      const parts = [
        ...waits.map((w) =>
          w.kind === 'approval'
            ? `an approval at ${w.nodeId}${w.title ? ` (${w.title})` : ''}: reply { "decision": "approved" | "rejected" }`
            : `the event ${w.event}: reply ${eventReply(w.event ?? '')}`,
        ),
        ...holds.map((h) => `a retry or a rollback of the held step ${h.nodeId} (${h.title}): reply { "action": "retry" | "rollback" }`),
      ];
      return `Order ${orderId} waits for ${parts.join('; and ')}.`;
    }
    case 'completed':
      return `Order ${orderId} completed${because}.`;
    case 'rolled_back':
      return `Order ${orderId} failed and was rolled back${because}.`;
    default:
      return `Order ${orderId} ${status.replace('_', ' ')}${because}.`;
  }
}
