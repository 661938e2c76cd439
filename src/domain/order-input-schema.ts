// Request schemas for an order: the start body's `input`, the start body, and the signed inbound orders body.
//
// Strictness: every object we define is strict (an unknown key is a 400 issue) so a typo such as
// `curency` or `qyt` fails loudly instead of silently using a default. The one exception is
// `meta`, which the spec calls free-form: only its known keys (`source`, `shipTo`, `simulate`)
// are validated, everything else passes through untouched.
//
// The schemas use no transforms (only defaults), so the same schema can generate OpenAPI.
import { z } from 'zod';
import { simulateSchema } from './simulate.js';
import { shipToSchema } from './ship-to.js';

export const ORDER_MODELS = ['b2b', 'b2c', 'd2c', 'marketplace', 'subscription', 'procurement', 'replenishment'] as const;
export type OrderModel = (typeof ORDER_MODELS)[number];

export const ORDER_CHANNELS = ['web', 'mobile', 'pos', 'marketplace', 'email', 'edi', 'api', 'manual', 'schedule'] as const;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];

/**
 * How the goods reach the buyer:
 * `ship` a carrier shipment from a warehouse or store (locationId pins it);
 * `pickup` the buyer collects at a store (locationId names it; a POS sale is a pickup at the till);
 * `deliver` local delivery by the seller's own courier;
 * `digital` nothing physical moves, codes or files are issued.
 */
export const FULFILLMENT_METHODS = ['ship', 'pickup', 'deliver', 'digital'] as const;
export type FulfillmentMethod = (typeof FULFILLMENT_METHODS)[number];

/** Limits from the spec's Limits table, plus sanity caps of our own (marked) that keep money math exact. */
export const ORDER_LIMITS = {
  title: 140,
  externalId: 200,
  documentText: 50_000,
  documentKey: 200,
  source: 60,
  sku: 100,
  flowId: 100,
  lines: 500,
  /** Our cap: keeps qty x unit price within safe integers. */
  qty: 1_000_000,
  /** Our cap, in the order currency's major units. */
  unitPrice: 1_000_000_000,
} as const;

const id = (max = 100) => z.string().min(1).max(max);

export const orderModelSchema = z.enum(ORDER_MODELS);
export const orderChannelSchema = z.enum(ORDER_CHANNELS);
/** A 3-letter uppercase ISO 4217 code; whether the workspace has a rate for it is checked later (fx). */
export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter uppercase currency code');

export const contactSchema = z.strictObject({
  email: z.email().max(254),
  name: z.string().min(1).max(200).optional(),
  phone: z.string().min(1).max(40).optional(),
});

export const fulfillmentSchema = z.strictObject({
  method: z.enum(FULFILLMENT_METHODS),
  locationId: id().optional(),
});

const lineShape = {
  sku: id(ORDER_LIMITS.sku),
  name: z.string().min(1).max(200).optional(),
  qty: z.number().int().positive().max(ORDER_LIMITS.qty),
  /** Decimal price per unit in the order currency; rounded to minor units by the pricing step. */
  unitPrice: z.number().min(0).max(ORDER_LIMITS.unitPrice).optional(),
  sellerId: id().optional(),
};

/** A line on the REST start; `locationId` pins the store it ships from. */
export const orderLineSchema = z.strictObject({ ...lineShape, locationId: id().optional() });

/** A line on the signed inbound route: the spec lists no locationId there. */
export const inboundOrderLineSchema = z.strictObject(lineShape);

/** `meta`: free-form; known keys are validated, the rest pass through. */
export const orderMetaSchema = z.looseObject({
  source: z.string().max(ORDER_LIMITS.source).optional(),
  shipTo: shipToSchema.optional(),
  simulate: simulateSchema.optional(),
});

/** Fields shared by the REST input and the inbound body (channel, externalId and lines differ). */
const inputShape = {
  model: orderModelSchema,
  title: z.string().max(ORDER_LIMITS.title).optional(),
  customerId: id().optional(),
  externalId: id(ORDER_LIMITS.externalId).optional(),
  contact: contactSchema.optional(),
  fulfillment: fulfillmentSchema.optional(),
  currency: currencyCodeSchema.default('USD'),
  lines: z.array(orderLineSchema).max(ORDER_LIMITS.lines).optional(),
  documentText: z.string().max(ORDER_LIMITS.documentText).optional(),
  documentKey: id(ORDER_LIMITS.documentKey).optional(),
  meta: orderMetaSchema.optional(),
};

/** The start body's `input`; channel defaults to `api` (POST /api/v1/orders). */
export const orderInputSchema = z.strictObject({
  ...inputShape,
  channel: orderChannelSchema.default('api'),
});

const varsSchema = z.record(z.string(), z.unknown());

/** POST /api/v1/orders body. */
export const startOrderBodySchema = z.strictObject({
  flowId: id(ORDER_LIMITS.flowId),
  /** At most the largest version PostgreSQL's integer column holds (a larger one is a 400, not a 500). */
  version: z.number().int().positive().max(2_147_483_647).optional(),
  input: orderInputSchema,
  vars: varsSchema.optional(),
});

/** POST /api/v1/webhooks/orders body: order input with channel and externalId required. */
export const inboundOrderBodySchema = z
  .strictObject({
    ...inputShape,
    channel: orderChannelSchema,
    externalId: id(ORDER_LIMITS.externalId),
    lines: z.array(inboundOrderLineSchema).max(ORDER_LIMITS.lines).optional(),
    flowId: id(ORDER_LIMITS.flowId).optional(),
    source: z.string().max(ORDER_LIMITS.source).optional(),
    shipTo: shipToSchema.optional(),
    vars: varsSchema.optional(),
  })
  .refine((body) => (body.lines?.length ?? 0) > 0 || (body.documentText?.length ?? 0) > 0, {
    message: 'Needs at least one line or documentText',
    path: ['lines'],
  });

export type OrderInput = z.output<typeof orderInputSchema>;
export type OrderInputRequest = z.input<typeof orderInputSchema>;
export type OrderLineInput = z.output<typeof orderLineSchema>;
export type InboundOrderLine = z.output<typeof inboundOrderLineSchema>;
export type Contact = z.output<typeof contactSchema>;
export type Fulfillment = z.output<typeof fulfillmentSchema>;
export type OrderMeta = z.output<typeof orderMetaSchema>;
export type StartOrderBody = z.output<typeof startOrderBodySchema>;
export type InboundOrderBody = z.output<typeof inboundOrderBodySchema>;
