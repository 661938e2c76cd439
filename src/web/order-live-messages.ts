// Messages of the live connection /agents/order-agent/:id (contract section 8).
import { z } from 'zod';
import { COMMAND_LIMITS, eventPayloadSchema } from '../orders/command-schemas.js';

const requestId = z.string().max(100).optional();

/** `{ type: "action", action, … }`: the page's buttons. The actor always comes from the session, never from here. */
export const liveActionSchema = z.discriminatedUnion('action', [
  z.strictObject({ type: z.literal('action'), action: z.literal('approve'), nodeId: z.string().min(1).max(100), note: z.string().max(COMMAND_LIMITS.note).optional(), requestId }),
  z.strictObject({ type: z.literal('action'), action: z.literal('reject'), nodeId: z.string().min(1).max(100), note: z.string().max(COMMAND_LIMITS.note).optional(), requestId }),
  z.strictObject({
    type: z.literal('action'),
    action: z.literal('deliver_event'),
    event: z.string().min(1).max(COMMAND_LIMITS.event),
    payload: eventPayloadSchema.optional(),
    requestId,
  }),
  z.strictObject({ type: z.literal('action'), action: z.literal('cancel'), reason: z.string().min(1).max(COMMAND_LIMITS.reason).optional(), requestId }),
  // Contract 16: a held step's Retry and Roll back.
  z.strictObject({ type: z.literal('action'), action: z.literal('retry_hold'), nodeId: z.string().min(1).max(100), note: z.string().max(COMMAND_LIMITS.note).optional(), requestId }),
  z.strictObject({ type: z.literal('action'), action: z.literal('rollback_hold'), nodeId: z.string().min(1).max(100), note: z.string().max(COMMAND_LIMITS.note).optional(), requestId }),
]);

export type LiveAction = z.infer<typeof liveActionSchema>;

/** Server -> client messages. */
export type LiveServerMessage =
  | { type: 'state'; state: unknown }
  | { type: 'result'; requestId?: string; action: LiveAction['action']; result: unknown }
  | { type: 'error'; requestId?: string; status: number; error: string; issues?: { path: string; message: string }[] };
