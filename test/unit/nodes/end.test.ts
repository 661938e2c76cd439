// Tests for the final nodes `end` and `logic.continue` (runtime contract section 5).
import { describe, expect, it } from 'vitest';
import { end } from '../../../src/nodes/end.js';
import { logicContinue } from '../../../src/nodes/logic-continue.js';

describe('end and continue', () => {
  it('contract 5: end takes outcome completed|declined|cancelled|failed and an optional reason', () => {
    for (const outcome of ['completed', 'declined', 'cancelled', 'failed']) {
      expect(end.params.parse({ outcome })).toEqual({ outcome });
    }
    expect(end.params.parse({ outcome: 'failed', reason: 'No seller accepted' })).toEqual({ outcome: 'failed', reason: 'No seller accepted' });
    expect(end.params.safeParse({}).success).toBe(false);
    expect(end.params.safeParse({ outcome: 'rolled_back' }).success).toBe(false);
  });

  it('contract 5: end and continue have no branches (no outgoing edges)', () => {
    expect(end.branches({ outcome: 'completed' })).toEqual([]);
    expect(end.kind).toBe('end');
    expect(logicContinue.branches({})).toEqual([]);
    expect(logicContinue.kind).toBe('continue');
  });

  it('contract 5: continue takes no params', () => {
    expect(logicContinue.params.parse({})).toEqual({});
    expect(logicContinue.params.safeParse({ x: 1 }).success).toBe(false);
  });
});
