// Commerce node catalogue entries: param schemas, branches and the failure-branch convention (contract section 5).
import { describe, expect, it } from 'vitest';
import { commerceNodeTypes } from '../../../src/nodes/commerce-node-types.js';
import { commercePolicy } from '../../../src/nodes/commerce-policy.js';
import { commerceSellerAccept } from '../../../src/nodes/commerce-seller-accept.js';
import { commerceRefund } from '../../../src/nodes/commerce-refund.js';
import { maskCode } from '../../../src/nodes/commerce-deliver-digital.js';

const SPEC_TYPES = [
  'ai.extract_order', 'commerce.fraud_score', 'commerce.price', 'commerce.authorize_payment', 'commerce.split_by_seller', 'commerce.notify',
  'commerce.seller_accept', 'commerce.reserve_stock', 'commerce.route_fulfillment', 'commerce.ship', 'commerce.capture_payment',
  'commerce.charge', 'commerce.invoice', 'commerce.pickup_ready', 'commerce.handover', 'commerce.deliver_digital', 'commerce.refund',
  'commerce.payout',
];

describe('commerce node catalogue', () => {
  it('has every node type the contract names, each documented', () => {
    const types = commerceNodeTypes.map((t) => t.type);
    for (const t of SPEC_TYPES) expect(types).toContain(t);
    for (const def of commerceNodeTypes) {
      expect(def.description.length).toBeGreaterThan(20);
      expect(def.outputs).toBeTruthy();
      expect(def.kind).toBe('step');
    }
  });

  it('spec branches: split accepted/awaiting, seller_accept pending/accepted/partial/rejected, fraud ok/high', () => {
    const byType = new Map(commerceNodeTypes.map((t) => [t.type, t]));
    expect(byType.get('commerce.split_by_seller')!.branches({})).toEqual(['accepted', 'awaiting']);
    expect(commerceSellerAccept.branches({ mode: 'from_event' })).toEqual(['pending', 'accepted', 'partial', 'rejected']);
    expect(byType.get('commerce.fraud_score')!.branches({})).toEqual(['ok', 'high']);
    // Payment, stock and shipping steps may wire `failed`; unwired, a failure rolls the order back.
    for (const t of ['commerce.authorize_payment', 'commerce.charge', 'commerce.capture_payment', 'commerce.ship', 'commerce.reserve_stock', 'commerce.refund']) {
      expect(byType.get(t)).toMatchObject({ failureBranch: 'failed', optionalBranches: ['failed'] });
    }
  });

  it('seller_accept mode defaults to from_event; unknown modes are refused', () => {
    expect(commerceSellerAccept.params.parse({})).toEqual({ mode: 'from_event' });
    expect(commerceSellerAccept.params.safeParse({ mode: 'later' }).success).toBe(false);
  });

  it('policy rules: no_po_box, credit_limit, max_total (with maxUsd)', () => {
    expect(commercePolicy.params.parse({ rule: 'no_po_box' })).toEqual({ rule: 'no_po_box' });
    expect(commercePolicy.params.parse({ rule: 'max_total', maxUsd: 5000 })).toEqual({ rule: 'max_total', maxUsd: 5000 });
    expect(commercePolicy.params.safeParse({ rule: 'max_total' }).success).toBe(false);
    expect(commercePolicy.params.safeParse({ rule: 'be_nice' }).success).toBe(false);
    expect(commercePolicy.params.safeParse({ rule: 'no_po_box', extra: 1 }).success).toBe(false);
  });

  it('refund takes amount or amountFrom, not both', () => {
    expect(commerceRefund.params.safeParse({ amount: 5 }).success).toBe(true);
    expect(commerceRefund.params.safeParse({ amountFrom: 'vars.return_requested.amount' }).success).toBe(true);
    expect(commerceRefund.params.safeParse({ amount: 5, amountFrom: 'vars.x' }).success).toBe(false);
    expect(commerceRefund.params.safeParse({ amountFrom: 'order.total' }).success).toBe(false);
  });

  it('digital codes are masked in outputs except the last group', () => {
    expect(maskCode('K7QM-2XWD-9PRT-ABCD')).toBe('****-****-****-ABCD');
  });
});
