// Body of POST /api/v1/webhooks/events: `{ orderId, event, payload? }` with the events route limits (contract section 10).
import { z } from 'zod';
import { COMMAND_LIMITS, eventPayloadSchema } from '../../orders/command-schemas.js';

export const signedEventBodySchema = z.strictObject({
  orderId: z.string().min(1).max(100),
  event: z.string().min(1).max(COMMAND_LIMITS.event),
  payload: eventPayloadSchema.optional(),
});

export type SignedEventRequest = z.output<typeof signedEventBodySchema>;
