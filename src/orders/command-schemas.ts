// Request schemas of the order commands (events, approvals, cancel, held steps), shared by REST and the live connection.
import { z } from 'zod';

/** Spec "Limits". */
export const COMMAND_LIMITS = {
  event: 100,
  /** Bytes of the payload serialised as JSON. */
  payloadBytes: 32 * 1024,
  by: 200,
  note: 2000,
  reason: 500,
} as const;

/** A business event payload: a JSON object up to 32 KiB (the wait adds `event` and `at` to it). */
export const eventPayloadSchema = z
  .record(z.string(), z.unknown())
  .refine((p) => Buffer.byteLength(JSON.stringify(p), 'utf8') <= COMMAND_LIMITS.payloadBytes, {
    message: `must be at most ${COMMAND_LIMITS.payloadBytes} bytes of JSON (32 KiB)`,
  });

export const eventBodySchema = z.strictObject({
  event: z.string().min(1).max(COMMAND_LIMITS.event),
  payload: eventPayloadSchema.optional(),
});

export const approvalBodySchema = z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  /** Only the workspace password may name who decided; people and tokens decide as themselves. */
  by: z.string().min(1).max(COMMAND_LIMITS.by).optional(),
  note: z.string().max(COMMAND_LIMITS.note).optional(),
});

export const cancelBodySchema = z.strictObject({
  reason: z.string().min(1).max(COMMAND_LIMITS.reason).optional(),
});

/** Contract 16: what to do with a held step, and why (the note is kept on the hold and in the timeline). */
export const holdBodySchema = z.strictObject({
  action: z.enum(['retry', 'rollback']).describe('`retry`: the same run of the step again (attempts keep counting); `rollback`: the rules the step would have had without the hold'),
  note: z.string().max(COMMAND_LIMITS.note).optional(),
});

/** The default cancel reason on the REST route: says where the cancel came from. */
export const API_CANCEL_REASON = 'Cancelled via the API';

/** At most this many lines in one return, and units in one line (work a caller controls is bounded). */
export const RETURN_LIMITS = { lines: 100, qty: 1_000_000 } as const;

/** One line of a return (contract 18): `sellerId` only when the SKU is on lines of several sellers (null: first party). */
export const returnLineSchema = z.strictObject({
  sku: z.string().min(1).max(100),
  qty: z.number().int().min(1).max(RETURN_LIMITS.qty),
  sellerId: z.string().min(1).max(100).nullable().optional().describe('The seller whose line is returned, when the SKU is on lines of several sellers; null: first party'),
});

/** The body of POST /api/v1/orders/:id/returns (contract 18). */
export const returnBodySchema = z.strictObject({
  lines: z.array(returnLineSchema).min(1).max(RETURN_LIMITS.lines),
  reason: z.string().min(1).max(COMMAND_LIMITS.reason).optional(),
});
