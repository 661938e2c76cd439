// The zod shapes of contract 16's order filter: as query parameters (numbers coerced) and as a JSON body's object.
import { z } from 'zod';
import { orderChannelSchema, orderModelSchema } from '../domain/order-input-schema.js';
import { ORDER_STATUSES } from './order-schemas.js';

/** Epoch ms bounds: PostgreSQL bigint, far past any date. */
const MAX_MS = 8_640_000_000_000_000;

/** The filter's fields with `number` as the given number schema (coerced for a query, strict for a body). */
function filterShape(number: () => z.ZodNumber) {
  return {
    status: z.enum(ORDER_STATUSES).optional(),
    model: orderModelSchema.optional(),
    channel: orderChannelSchema.optional(),
    q: z.string().max(200).optional().describe('Matches order id, title, customer id, contact email or external id, case-insensitively: anywhere in them when q has three letters or digits in a row, else at their start'),
    flowId: z.string().min(1).max(100).optional().describe('The flow the order runs on'),
    flowVersion: number().int().min(1).max(2_147_483_647).optional().describe('With flowId: the version the order is pinned to'),
    waitingAtNode: z.string().min(1).max(100).optional().describe('The id of the node where the order is parked (an open approval, event or delay wait, or a step waiting for its retry)'),
    sellerId: z.string().min(1).max(100).optional().describe('A seller of one of its lines (dropped lines aside)'),
    sku: z.string().min(1).max(100).optional().describe('A SKU of one of its lines (dropped lines aside)'),
    createdAfter: number().int().min(0).max(MAX_MS).optional().describe('Created at or after (epoch ms)'),
    createdBefore: number().int().min(0).max(MAX_MS).optional().describe('Created at or before (epoch ms)'),
  };
}

/** flowVersion alone names no flow: versions are numbered per flow. */
function versionNeedsFlow(value: { flowId?: string; flowVersion?: number }, ctx: z.RefinementCtx): void {
  if (value.flowVersion !== undefined && value.flowId === undefined)
    ctx.addIssue({ code: 'custom', path: ['flowVersion'], message: 'needs flowId (versions are numbered per flow)' });
}

/** The filter's fields as query parameters (GET /api/v1/orders, /orders, GET /api/v1/orders/totals). */
export const orderFilterQueryShape = filterShape(() => z.coerce.number());

/** The filter of a batch body: a JSON object of the same keys, numbers as JSON numbers, nothing else. */
export const orderFilterBodySchema = z.strictObject(filterShape(() => z.number())).superRefine(versionNeedsFlow);

/** Adds the flowVersion-needs-flowId rule to an input schema holding the filter's fields. */
export const withFilterRules = versionNeedsFlow;
