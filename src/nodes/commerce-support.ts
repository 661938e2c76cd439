// Shared helpers of the commerce node types: ports with their in-database defaults, money output, run scoping.
import { z } from 'zod';
import type { OrderView, StepServices } from '../engine/node-type.js';
import type { Carrier } from '../commerce/carrier.js';
import { ledgerCarrier } from '../commerce/ledger-carrier.js';
import { ledgerPaymentGateway } from '../commerce/ledger-payment-gateway.js';
import { fromMinor, minorDigits } from '../domain/money.js';
import type { PaymentGateway } from '../commerce/payment-gateway.js';
import { simulateSwitches, type SimulateSwitch } from '../domain/simulate.js';

/**
 * Port keys in `StepServices`: a deployment may hand its own gateway or carrier to the engine
 * (`EngineOptions.services`); without one the in-database implementations record everything.
 */
export const COMMERCE_PORTS = { payments: 'payments', carrier: 'carrier', orderExtractor: 'orderExtractor' } as const;

export function paymentsPort(services: StepServices): PaymentGateway {
  return (services[COMMERCE_PORTS.payments] as PaymentGateway | undefined) ?? ledgerPaymentGateway;
}

export function carrierPort(services: StepServices): Carrier {
  return (services[COMMERCE_PORTS.carrier] as Carrier | undefined) ?? ledgerCarrier;
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
