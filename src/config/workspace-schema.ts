// The workspace file of runtime-contract section 3: administrator settings, validated with zod.
import { z } from 'zod';
import { durationSchema, parseDuration } from '../platform/duration.js';
import { isOutboundCallUrl, OUTBOUND_CALL_URL_RULE } from '../lib/outbound-call-url.js';

const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, 'must be 1-100 letters, digits, _ . : -');
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter uppercase currency code');
const money = z.number().finite().min(0);

export const twoFactorRequirements = ['nobody', 'operators', 'approvers_and_operators', 'everyone'] as const;

export const locationSchema = z.object({
  id,
  name: z.string().min(1).max(200),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  kind: z.enum(['warehouse', 'store']).default('warehouse'),
});

export const sellerSchema = z.object({
  id,
  name: z.string().min(1).max(200),
  commission: z.number().min(0).max(1),
  autoAccept: z.boolean().default(false),
  active: z.boolean().default(true),
  /** Where `commerce.notify` with `to: seller` writes (docs/notifications.md). */
  email: z.email().optional(),
});

export const productSchema = z.object({
  sku: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  price: money,
  sellerId: id.optional(),
  reorderPoint: z.number().int().min(0).default(0),
  reorderQty: z.number().int().positive().optional(),
  digital: z.boolean().default(false),
  stock: z.record(z.string(), z.number().int().min(0)).default({}),
});

export const customerSchema = z.object({
  id,
  email: z.email(),
  name: z.string().min(1).max(200).optional(),
  creditLimit: money.optional(),
});

/** Longest timeout of an adapter request (as http.call's): a call holds no lock, but a worker slot and its lease. */
const MAX_ADAPTER_TIMEOUT_MS = 120_000;

/**
 * An HTTP adapter of a commerce port (docs/integrations.md): its base URL (no trailing slash),
 * an optional integration id whose secret signs every request, and the timeout of one request.
 */
export const httpAdapterSchema = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine(isOutboundCallUrl, OUTBOUND_CALL_URL_RULE)
    .transform((u) => u.replace(/\/+$/, '')),
  secret: id.optional(),
  timeout: durationSchema.refine((d) => parseDuration(d) <= MAX_ADAPTER_TIMEOUT_MS, `At most ${MAX_ADAPTER_TIMEOUT_MS / 1000}s`).default('10s'),
});

/** Which ports talk to a remote service; an absent port keeps the in-database ledger. */
export const adaptersSchema = z.strictObject({
  payments: httpAdapterSchema.optional(),
  carrier: httpAdapterSchema.optional(),
});

export const workspaceSchema = z
  .object({
    name: z.string().min(1).max(200),
    exchangeRates: z
      .record(currencyCode, z.number().positive())
      .refine((r) => r.USD === 1, { message: 'must contain USD with rate 1' }),
    taxRate: z.number().min(0).max(1).default(0),
    twoFactorRequirement: z.enum(twoFactorRequirements).default('nobody'),
    locations: z.array(locationSchema).default([]),
    sellers: z.array(sellerSchema).default([]),
    products: z.array(productSchema).default([]),
    customers: z.array(customerSchema).default([]),
    orderRoutes: z
      .record(z.string().regex(/^[a-z0-9_]+:([a-z0-9_]+|\*)$/, 'keys are model:channel or model:*'), z.string().min(1).max(100))
      .default({}),
    ediPartners: z.record(z.string().min(1).max(15), id).default({}),
    platform: z.object({ clientSecret: z.string().min(1), name: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/) }).optional(),
    returnWindowDays: z.number().int().min(0).max(365).default(14),
    fraud: z.object({ approvalThreshold: z.number().min(0).max(100).default(70) }).default({ approvalThreshold: 70 }),
    adapters: adaptersSchema.default({}),
  })
  .superRefine((ws, ctx) => {
    const sellers = new Set(ws.sellers.map((s) => s.id));
    const locations = new Set(ws.locations.map((l) => l.id));
    ws.products.forEach((p, i) => {
      if (p.sellerId && !sellers.has(p.sellerId))
        ctx.addIssue({ code: 'custom', path: ['products', i, 'sellerId'], message: `unknown seller ${p.sellerId}` });
      for (const loc of Object.keys(p.stock))
        if (!locations.has(loc))
          ctx.addIssue({ code: 'custom', path: ['products', i, 'stock', loc], message: `unknown location ${loc}` });
    });
    const customers = new Set(ws.customers.map((c) => c.id));
    for (const [sender, customerId] of Object.entries(ws.ediPartners))
      if (!customers.has(customerId))
        ctx.addIssue({ code: 'custom', path: ['ediPartners', sender], message: `unknown customer ${customerId}` });
  });

export type Workspace = z.output<typeof workspaceSchema>;
export type TwoFactorRequirement = (typeof twoFactorRequirements)[number];
