// Tests for the `wait.delay` node (runtime contract section 5: `{ duration }`, branch next).
import { describe, expect, it } from 'vitest';
import { waitDelay } from '../../../src/nodes/wait-delay.js';
import { stepContext } from './step-context.js';

describe('wait.delay', () => {
  it('contract 5: duration is required and must be a duration string', () => {
    expect(waitDelay.params.safeParse({}).success).toBe(false);
    expect(waitDelay.params.safeParse({ duration: '14' }).success).toBe(false);
    expect(waitDelay.params.parse({ duration: '14d' })).toEqual({ duration: '14d' });
  });

  it('contract 5: the wait is a timer of the duration that takes next', () => {
    const spec = waitDelay.wait!(stepContext(waitDelay.params.parse({ duration: '15m' })));
    expect(spec).toMatchObject({ kind: 'delay', timeoutMs: 900_000, timeoutBranch: 'next' });
    expect(waitDelay.branches({ duration: '15m' })).toEqual(['next']);
    expect(waitDelay.defaultBranch).toBe('next');
  });

  it('contract 5: elapsing (or the timer firing) takes next', () => {
    expect(waitDelay.resolveWait!({ duration: '1h' }, { kind: 'elapsed', at: 7 })).toMatchObject({ branch: 'next', output: { duration: '1h', at: 7 } });
    expect(waitDelay.resolveWait!({ duration: '1h' }, { kind: 'timeout', at: 7 }).branch).toBe('next');
    expect(() => waitDelay.resolveWait!({ duration: '1h' }, { kind: 'event', event: 'x', payload: {}, at: 7 })).toThrow();
  });
});

describe('wait.delay durationFrom', () => {
  it('reads a duration string or milliseconds from a run variable; `duration` is the fallback', () => {
    const params = waitDelay.params.parse({ duration: '30d', durationFrom: 'vars.period' });
    expect(waitDelay.wait!(stepContext(params, { vars: { period: '7d' } })).timeoutMs).toBe(7 * 86_400_000);
    expect(waitDelay.wait!(stepContext(params, { vars: { period: 90_000 } }))).toMatchObject({ timeoutMs: 90_000, title: 'Waiting 90s' });
    expect(waitDelay.wait!(stepContext(params, { vars: {} })).timeoutMs).toBe(30 * 86_400_000);
    expect(waitDelay.wait!(stepContext(params, { vars: { period: 'soon' } })).timeoutMs).toBe(30 * 86_400_000);
    expect(waitDelay.wait!(stepContext(params, { vars: { period: -5 } })).timeoutMs).toBe(30 * 86_400_000);
  });

  it('only vars paths are accepted; a variable cannot park a run for more than a year', () => {
    expect(waitDelay.params.safeParse({ duration: '1d', durationFrom: 'order.total' }).success).toBe(false);
    const params = waitDelay.params.parse({ duration: '1d', durationFrom: 'vars.x' });
    expect(waitDelay.wait!(stepContext(params, { vars: { x: 10 * 366 * 86_400_000 } })).timeoutMs).toBe(366 * 86_400_000);
  });
});
