// Tests for the `wait.event` node (spec "Wait-for-event node", "Wait-for-event branches").
import { describe, expect, it } from 'vitest';
import { eventVarName, waitEvent } from '../../../src/nodes/wait-event.js';
import { stepContext } from './step-context.js';

describe('wait.event', () => {
  it('spec Wait-for-event: defaults are event payment.received and timeout 30 days', () => {
    const params = waitEvent.params.parse({});
    expect(params).toEqual({ event: 'payment.received', timeout: '30d' });
    expect(waitEvent.wait!(stepContext(params))).toMatchObject({ kind: 'event', event: 'payment.received', timeoutMs: 30 * 86_400_000, timeoutBranch: 'timeout' });
  });

  it('spec Wait-for-event branches: received and timeout', () => {
    expect(waitEvent.branches(waitEvent.params.parse({}))).toEqual(['received', 'timeout']);
  });

  it('spec Wait-for-event: the vars key replaces every run of non-alphanumerics with _', () => {
    expect(eventVarName('payment.received')).toBe('payment_received');
    expect(eventVarName('seller.responded')).toBe('seller_responded');
    expect(eventVarName('a..b--c d')).toBe('a_b_c_d');
    expect(eventVarName('.x.')).toBe('_x_');
  });

  it('spec Wait-for-event: a delivered payload gets event and at added and is stored in vars.<name>', () => {
    const params = waitEvent.params.parse({ event: 'seller.responded' });
    const result = waitEvent.resolveWait!(params, {
      kind: 'event',
      event: 'seller.responded',
      payload: { sellerId: 's1', decision: 'accepted', event: 'forged', at: 1 },
      at: 1_700_000_000_000,
    });
    const stored = { sellerId: 's1', decision: 'accepted', event: 'seller.responded', at: 1_700_000_000_000 };
    expect(result).toMatchObject({ branch: 'received', output: stored, vars: { seller_responded: stored } });
  });

  it('spec Wait-for-event branches: a timeout takes timeout and sets no vars', () => {
    const result = waitEvent.resolveWait!(waitEvent.params.parse({}), { kind: 'timeout', at: 42 });
    expect(result.branch).toBe('timeout');
    expect(result.vars).toBeUndefined();
  });

  it('protocol: resolving with another event name or an approval is a host bug and throws', () => {
    const params = waitEvent.params.parse({});
    expect(() => waitEvent.resolveWait!(params, { kind: 'event', event: 'other', payload: {}, at: 1 })).toThrow(/other/);
    expect(() => waitEvent.resolveWait!(params, { kind: 'approval', decision: 'approved', by: 'x', note: null, at: 1 })).toThrow();
  });

  it('spec Limits: an event name is 1 to 100 characters', () => {
    expect(waitEvent.params.safeParse({ event: '' }).success).toBe(false);
    expect(waitEvent.params.safeParse({ event: 'x'.repeat(101) }).success).toBe(false);
    expect(waitEvent.params.safeParse({ event: 'x'.repeat(100) }).success).toBe(true);
  });
});
