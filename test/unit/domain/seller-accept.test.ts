// Unit tests for seller answers (spec "Seller order statuses", "Seller-accept node branches", "Marketplace acceptance loop").
import { describe, expect, it } from 'vitest';
import {
  acceptanceBranch,
  applySellerAnswer,
  evaluateSellerAccept,
  expirePending,
  NO_RESPONSE_REASON,
  parseSellerAnswer,
  type SellerOrderState,
} from '../../../src/domain/seller-accept.js';

const orders: SellerOrderState[] = [
  { sellerId: null, status: 'accepted' },
  { sellerId: 'seller_acme', status: 'pending' },
  { sellerId: 'seller_bolt', status: 'pending' },
];

describe('spec "Seller order statuses": answers change only pending parts', () => {
  it('accepted and rejected (with optional reason) from a matching answer', () => {
    const a = applySellerAnswer(orders, { sellerId: 'seller_acme', decision: 'accepted' });
    expect(a.orders[1]).toMatchObject({ status: 'accepted' });
    expect(a.changed).toEqual(['seller_acme']);
    const r = applySellerAnswer(orders, { sellerId: 'seller_bolt', decision: 'rejected', reason: 'Out of tents' });
    expect(r.orders[2]).toEqual({ sellerId: 'seller_bolt', status: 'rejected', reason: 'Out of tents' });
    expect(orders[2].status).toBe('pending'); // input untouched
  });

  it('a repeated answer changes nothing', () => {
    const once = applySellerAnswer(orders, { sellerId: 'seller_acme', decision: 'rejected' }).orders;
    const again = applySellerAnswer(once, { sellerId: 'seller_acme', decision: 'accepted' });
    expect(again.changed).toEqual([]);
    expect(again.orders[1].status).toBe('rejected');
  });

  it('an answer from a seller not on the order changes nothing', () => {
    expect(applySellerAnswer(orders, { sellerId: 'seller_other', decision: 'accepted' }).changed).toEqual([]);
  });

  it('expire_pending rejects every pending part with reason "No response"', () => {
    const e = expirePending([orders[0], { sellerId: 'seller_acme', status: 'accepted' }, orders[2]]);
    expect(e.orders.map((o) => o.status)).toEqual(['accepted', 'accepted', 'rejected']);
    expect(e.orders[2].reason).toBe(NO_RESPONSE_REASON);
    expect(NO_RESPONSE_REASON).toBe('No response');
    expect(e.changed).toEqual(['seller_bolt']);
  });
});

describe('spec "Seller-accept node branches"', () => {
  it('pending while any part is pending', () => {
    expect(acceptanceBranch(orders)).toBe('pending');
  });
  it('accepted when none pending and every part accepted', () => {
    expect(acceptanceBranch([{ sellerId: 'a', status: 'accepted' }, { sellerId: 'b', status: 'accepted' }])).toBe('accepted');
  });
  it('partial when some accepted and some rejected', () => {
    expect(acceptanceBranch([{ sellerId: 'a', status: 'accepted' }, { sellerId: 'b', status: 'rejected' }])).toBe('partial');
  });
  it('rejected when none accepted', () => {
    expect(acceptanceBranch([{ sellerId: 'a', status: 'rejected' }, { sellerId: 'b', status: 'rejected' }])).toBe('rejected');
  });
});

describe('spec "Marketplace acceptance loop": from_event and expire_pending modes', () => {
  it('from_event records the answer and picks the branch, listing rejected sellers', () => {
    const step1 = evaluateSellerAccept(orders, { mode: 'from_event', payload: { sellerId: 'seller_acme', decision: 'accepted', event: 'seller.responded', at: 1 } });
    expect(step1).toMatchObject({ ok: true, branch: 'pending', pendingSellers: ['seller_bolt'], acceptedSellers: ['seller_acme'] });
    if (!step1.ok) return;
    const step2 = evaluateSellerAccept(step1.orders, { mode: 'from_event', payload: { sellerId: 'seller_bolt', decision: 'rejected' } });
    expect(step2).toMatchObject({ ok: true, branch: 'partial', rejectedSellers: ['seller_bolt'], pendingSellers: [] });
  });

  it('expire_pending after the wait timeout', () => {
    const r = evaluateSellerAccept([{ sellerId: 'seller_acme', status: 'pending' }], { mode: 'expire_pending' });
    expect(r).toMatchObject({ ok: true, branch: 'rejected', rejectedSellers: ['seller_acme'] });
  });

  it('a payload lacking sellerId or a valid decision fails the step', () => {
    for (const payload of [{ decision: 'accepted' }, { sellerId: '', decision: 'accepted' }, { sellerId: 'seller_acme' }, { sellerId: 'seller_acme', decision: 'maybe' }, null, 'x'])
      expect(evaluateSellerAccept(orders, { mode: 'from_event', payload }).ok).toBe(false);
    expect(parseSellerAnswer({ sellerId: 's', decision: 'rejected', reason: 'r'.repeat(600) })).toMatchObject({ ok: true, answer: { reason: 'r'.repeat(500) } });
  });
});
