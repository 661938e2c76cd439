// What an expired lease means (docs/batches.md "Exactly once"): an order is run again only when it cannot be twice.
import { describe, expect, it } from 'vitest';
import { expiredVerdict, UNCERTAIN_OUTCOME } from '../../../src/application/batches/batch-worker.js';
import type { ExpiredItem } from '../../../src/batches/batch-claims.js';

const item = (operation: string, markAtClaim: string | null, markNow: string | null): ExpiredItem => ({
  batchId: 'bat_1',
  seq: 1,
  orderId: 'ord_1',
  claim: 'c',
  operation,
  markAtClaim,
  markNow,
});

describe('an order whose node stopped before recording it', () => {
  it('runs again when the order row is the version seen at the claim (the operation did not commit)', () => {
    for (const op of ['cancel', 'deliver_event', 'decide_approval']) expect(expiredVerdict(item(op, '901', '901'))).toEqual({ retry: true });
    // No such order then or now: running again gives the same 404 refusal.
    expect(expiredVerdict(item('cancel', null, null))).toEqual({ retry: true });
  });

  it('is recorded failed, not run again, when the order changed since (the operation may have committed)', () => {
    for (const op of ['cancel', 'deliver_event', 'decide_approval'])
      expect(expiredVerdict(item(op, '901', '944'))).toEqual({ outcome: 'failed', error: UNCERTAIN_OUTCOME });
    expect(expiredVerdict(item('an_operation_no_longer_known', '901', '944'))).toEqual({ outcome: 'failed', error: UNCERTAIN_OUTCOME });
  });

  it('restart runs again whatever happened: its Idempotency-Key per batch and order answers the order started first', () => {
    expect(expiredVerdict(item('restart', '901', '944'))).toEqual({ retry: true });
  });
});
