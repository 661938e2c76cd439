// One error hierarchy: step failures are DomainErrors, and one rule says which failures a retry can cure.
import { describe, expect, it } from 'vitest';
import { DomainError, isTerminalFailure, notFound, RetryableError, TerminalError } from '../../../src/domain/errors.js';
import { toErrorResponse } from '../../../src/transport/http-errors.js';

describe('step failures (DESIGN rule 3)', () => {
  it('a TerminalError and any lasting refusal fail the step at once', () => {
    expect(isTerminalFailure(new TerminalError('card declined'))).toBe(true);
    expect(isTerminalFailure(new DomainError('unsupported_currency', 'Unsupported currency XXX', 'invalid_input'))).toBe(true);
    expect(isTerminalFailure(notFound('Product'))).toBe(true);
  });

  it('a RetryableError, a transient refusal and an unexpected error are retried by the policy', () => {
    expect(isTerminalFailure(new RetryableError('gateway timeout', 2_000))).toBe(false);
    expect(isTerminalFailure(new DomainError('busy', 'Try later', 'unavailable'))).toBe(false);
    expect(isTerminalFailure(new DomainError('slow_down', 'Too many', 'throttled'))).toBe(false);
    expect(isTerminalFailure(new Error('socket hang up'))).toBe(false);
  });

  it('both are DomainErrors with neutral kinds, so an edge that meets one answers it like any refusal', () => {
    const terminal = new TerminalError('card declined', 'card_declined');
    expect(terminal).toBeInstanceOf(DomainError);
    expect([terminal.code, terminal.kind]).toEqual(['card_declined', 'unprocessable']);
    expect(toErrorResponse(terminal)).toMatchObject({ status: 422, internal: false });
    const retryable = new RetryableError('gateway timeout', 2_500);
    expect(retryable.retryAfterMs).toBe(2_500);
    expect(toErrorResponse(retryable)).toMatchObject({ status: 503, headers: { 'Retry-After': '3' }, internal: false });
  });
});
