// Shared helpers of the commerce node types: the HTTP adapters that replace a port, money output, run scoping.
import { z } from 'zod';
import type { OrderView, StepContext } from '../engine/node-type.js';
import type { StoredHttpAdapter } from '../commerce/http-adapter.js';
import { fromMinor, minorDigits } from '../domain/money.js';
import { simulateSwitches, type SimulateSwitch } from '../domain/simulate.js';

/**
 * The workspace's HTTP adapter of the payment gateway (docs/integrations.md), or null. When set it
 * wins over the ledger: the step returns the adapter's request as `{ call }` (an external step) and
 * records the ledger's rows from the answer (`ctx.ports.payments.record*`); when null, the
 * `payments` port's ledger gateway serves the step in the transaction.
 */
export async function paymentsAdapter(ctx: Pick<StepContext<unknown>, 'ports'>): Promise<StoredHttpAdapter | null> {
  return (await ctx.ports.settings.read()).adapters.payments;
}

/** The workspace's HTTP adapter of the carrier, or null (then the `shipments` port's in-database carrier); as `paymentsAdapter`. */
export async function carrierAdapter(ctx: Pick<StepContext<unknown>, 'ports'>): Promise<StoredHttpAdapter | null> {
  return (await ctx.ports.settings.read()).adapters.carrier;
}

/** What a remote service may reconcile a step's request by: the order, its run and the node (stable across retries). */
export function stepReference(ctx: Pick<StepContext<unknown>, 'order' | 'nodeId'>): string {
  return `${ctx.order.id}:${generationOf(ctx.order)}:${ctx.nodeId}`;
}

/** The run the step belongs to: records are scoped to it so a subscription's periods stay apart. */
export function generationOf(order: OrderView): number {
  const g = Number(order.generation);
  return Number.isInteger(g) && g > 0 ? g : 1;
}

/** The order's `meta.simulate` switches. */
export function simulateOf(order: OrderView): Set<SimulateSwitch> {
  return simulateSwitches(order.meta);
}

/** A minor-unit amount as the JSON number outputs and webhooks show (spec: money in the order currency). */
export function money(minor: number, currency: string): number {
  return fromMinor(minor, currency);
}

/** `12.50 USD` (`1894 JPY`) for summaries. */
export function moneyText(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`;
}

/** Params of a node type that takes none. */
export const noParams = z.strictObject({});
export type NoParams = z.infer<typeof noParams>;

/** The branches of a step whose failure a flow may catch: `failed` need not be wired (unwired: rollback). */
export const FALLIBLE_STEP = {
  branches: () => ['ok', 'failed'] as const,
  defaultBranch: 'ok',
  optionalBranches: ['failed'] as const,
  failureBranch: 'failed',
} as const;
