// Tests for `commerce.policy` credit_limit over its ports (docs/commerce.md "Node catalogue"): the customer's limit
// against its open invoices plus this order, in USD cents, with no database.
import { describe, expect, it } from 'vitest';
import { commercePolicy, type PolicyParams } from '../../../src/nodes/commerce-policy.js';
import type { StepResult } from '../../../src/engine/node-type.js';
import { stepContext, testOrder, testPorts } from './step-context.js';

/** Runs commerce.policy credit_limit for an order of $100.00 with these customer answers. */
async function creditLimit(customerId: string | null, account: { limitMinor: number | null } | null, open: { amountMinor: number; currency: string }[] = []) {
  const params: PolicyParams = { rule: 'credit_limit' };
  const ctx = stepContext(params, {
    order: testOrder({ customerId, total: 10_000 }),
    ports: testPorts({
      customers: { creditLimit: () => Promise.resolve(account), openInvoices: () => Promise.resolve(open) },
      settings: { read: () => Promise.resolve({ exchangeRates: { USD: 1, EUR: 0.5 }, taxRate: 0, returnWindowDays: 14, fraudThreshold: 80, adapters: { payments: null, carrier: null } }) },
    }),
  });
  return (await commercePolicy.run!(ctx)) as StepResult;
}

describe('commerce.policy credit_limit', () => {
  it('no customer account, an unknown customer: violation (on-account terms need an account)', async () => {
    expect((await creditLimit(null, null)).output).toEqual({ rule: 'credit_limit', passed: false, reason: 'No customer account: on-account terms need one' });
    expect((await creditLimit('cust_ghost', null)).output).toEqual({ rule: 'credit_limit', passed: false, reason: 'Unknown customer cust_ghost' });
  });

  it('no limit set: ok', async () => {
    expect(await creditLimit('cust_1', { limitMinor: null })).toMatchObject({ branch: 'ok', output: { passed: true, reason: 'No credit limit set' } });
  });

  it('open invoices (in USD at the workspace rate) plus this order within the limit: ok; above it: violation', async () => {
    // 50.00 EUR at 0.5 per USD = $100.00 open; this order $100.00.
    const within = await creditLimit('cust_1', { limitMinor: 20_000 }, [{ amountMinor: 5_000, currency: 'EUR' }]);
    expect(within).toMatchObject({ branch: 'ok', output: { reason: 'Open $100.00 + this order $100.00 within the limit of $200.00' } });
    const above = await creditLimit('cust_1', { limitMinor: 19_999 }, [{ amountMinor: 5_000, currency: 'EUR' }]);
    expect(above).toMatchObject({ branch: 'violation', output: { reason: 'Credit limit of $199.99 exceeded: open $100.00 + this order $100.00' } });
  });
});
