// Errors are transport-neutral (application-layer issue): a DomainError carries a kind, and the HTTP binding alone
// turns it into the spec's status ("Errors" table), with Retry-After for throttling.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflict, DomainError, forbidden, notFound, unauthorized, ValidationError } from '../../../src/domain/errors.js';
import { HTTP_STATUS, toErrorResponse } from '../../../src/transport/http-errors.js';

describe('one error base, one HTTP mapping', () => {
  it('each kind has the status the spec gives it', () => {
    expect(HTTP_STATUS).toEqual({
      invalid_input: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409,
      too_large: 413, unsupported_media: 415, unprocessable: 422, throttled: 429, unavailable: 503,
    });
  });

  it('the helpers and validation errors map to 404, 409, 403, 401 and 400 with issues', () => {
    expect(toErrorResponse(notFound('Order'))).toMatchObject({ status: 404, body: { error: 'Order not found' }, internal: false });
    expect(toErrorResponse(conflict('Order already completed')).status).toBe(409);
    expect(toErrorResponse(forbidden()).status).toBe(403);
    expect(toErrorResponse(unauthorized()).status).toBe(401);
    expect(toErrorResponse(new ValidationError([{ path: 'event', message: 'Required' }]))).toMatchObject({ status: 400, body: { issues: [{ path: 'event' }] } });
  });

  it('throttled carries Retry-After; a deliberate unavailable is a 503 and no bug', () => {
    const throttled = toErrorResponse(new DomainError('throttled', 'Too many', 'throttled', { retryAfterSeconds: 42 }));
    expect(throttled).toMatchObject({ status: 429, headers: { 'Retry-After': '42' }, internal: false });
    expect(toErrorResponse(new DomainError('platform_disabled', 'off', 'unavailable'))).toMatchObject({ status: 503, internal: false });
  });

  it('no HTTP status is written outside the HTTP binding: DomainErrors name a kind, not a number', () => {
    const offenders: string[] = [];
    for (const file of fs.readdirSync('src', { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      const text = fs.readFileSync(path.join('src', file), 'utf8');
      for (const m of text.matchAll(/new DomainError\([^\n]*?,\s*\d{3}\s*[,)]/g)) offenders.push(`${file}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});
