// Node type `commerce.policy`: checks one business rule (`rule` param) and takes `ok` or `violation`.
//
// Rules:
//   no_po_box     meta.shipTo (string or structured address) is not a post-office box
//   credit_limit  the customer's open on-account invoices plus this order stay within its credit limit
//                 (USD; no limit set = unlimited; no customer account = violation, terms need an account)
//   max_total     the order total in USD is at most `maxUsd` (e.g. "needs approval above $5,000")
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { convertMinor } from '../domain/fx.js';
import { fromMinor, toMinor } from '../domain/money.js';
import { isPoBox } from '../domain/po-box.js';
import type { ShipTo } from '../domain/ship-to.js';

export const POLICY_RULES = ['no_po_box', 'credit_limit', 'max_total'] as const;

export const policyParams = z.discriminatedUnion('rule', [
  z.strictObject({ rule: z.literal('no_po_box') }),
  z.strictObject({ rule: z.literal('credit_limit') }),
  z.strictObject({ rule: z.literal('max_total'), maxUsd: z.number().positive().max(1_000_000_000) }),
]);

export type PolicyParams = z.infer<typeof policyParams>;

interface Verdict {
  passed: boolean;
  reason: string;
}

const usd = (cents: number) => `$${fromMinor(cents, 'USD').toFixed(2)}`;

export const commercePolicy: NodeTypeDef<PolicyParams> = {
  type: 'commerce.policy',
  kind: 'step',
  label: 'Policy check',
  description:
    'Checks one rule: no_po_box (ship-to is not a PO box), credit_limit (open invoices plus this order within the ' +
    'customer\'s limit), max_total (order total in USD at most maxUsd). Takes `ok` when it holds, `violation` otherwise.',
  params: policyParams,
  branches: () => ['ok', 'violation'],
  defaultBranch: 'ok',
  outputs: '{ rule, passed, reason }',
  async run(ctx): Promise<StepResult> {
    const { order, params } = ctx;
    const toUsdCents = async (minor: number, currency: string) => {
      if (currency === order.currency) return convertMinor(minor, currency, 'USD', { USD: 1, [currency]: currency === 'USD' ? 1 : Number(order.fxRate) });
      return convertMinor(minor, currency, 'USD', (await ctx.ports.settings.read()).exchangeRates);
    };
    let verdict: Verdict;
    switch (params.rule) {
      case 'no_po_box': {
        const shipTo = order.meta.shipTo as ShipTo | undefined;
        verdict = isPoBox(shipTo)
          ? { passed: false, reason: 'Ships to a PO box' }
          : { passed: true, reason: shipTo ? 'Ship-to is a street address' : 'No ship-to address' };
        break;
      }
      case 'max_total': {
        const cents = await toUsdCents(order.total, order.currency);
        const max = toMinor(params.maxUsd, 'USD');
        verdict = cents <= max
          ? { passed: true, reason: `Total ${usd(cents)} is within ${usd(max)}` }
          : { passed: false, reason: `Total ${usd(cents)} is above ${usd(max)}` };
        break;
      }
      case 'credit_limit': {
        if (!order.customerId) {
          verdict = { passed: false, reason: 'No customer account: on-account terms need one' };
          break;
        }
        const account = await ctx.ports.customers.creditLimit(order.customerId);
        if (!account) {
          verdict = { passed: false, reason: `Unknown customer ${order.customerId}` };
          break;
        }
        if (account.limitMinor === null) {
          verdict = { passed: true, reason: 'No credit limit set' };
          break;
        }
        const limit = account.limitMinor;
        const open = await ctx.ports.customers.openInvoices(order.customerId, order.id);
        let exposure = 0;
        for (const inv of open) exposure += await toUsdCents(inv.amountMinor, inv.currency);
        const thisOrder = await toUsdCents(order.total, order.currency);
        verdict = exposure + thisOrder <= limit
          ? { passed: true, reason: `Open ${usd(exposure)} + this order ${usd(thisOrder)} within the limit of ${usd(limit)}` }
          : { passed: false, reason: `Credit limit of ${usd(limit)} exceeded: open ${usd(exposure)} + this order ${usd(thisOrder)}` };
        break;
      }
    }
    return {
      branch: verdict.passed ? 'ok' : 'violation',
      output: { rule: params.rule, passed: verdict.passed, reason: verdict.reason },
      summary: `${params.rule}: ${verdict.passed ? 'ok' : 'violation'} (${verdict.reason})`,
    };
  },
};
