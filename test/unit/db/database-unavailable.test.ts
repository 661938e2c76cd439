// A PostgreSQL outage is a 503 `{ error }` without details, a bug stays a 500 (issue "Resilience": PostgreSQL outage).
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../src/db/database-unavailable.js';
import { toErrorResponse } from '../../../src/transport/http-errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database unavailable errors', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['connection reset', withCode('ECONNRESET')],
    ['server shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['connection exception class 08', withCode('08006')],
    ['too many connections', withCode('53300')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['every address refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
  ])('%s is recognised and answered 503 { error } without details', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    const res = toErrorResponse(err);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'Service temporarily unavailable' });
    expect(res.internal).toBe(false);
  });

  it.each([
    ['a bug', new Error('Cannot read properties of undefined')],
    ['a SQL error', withCode('42P01', 'relation "x" does not exist')],
    ['a constraint violation', withCode('23505', 'duplicate key value')],
    ['a mixed aggregate', new AggregateError([withCode('ECONNREFUSED'), new Error('bug')], '')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s stays a 500 Internal error', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(toErrorResponse(err)).toMatchObject({ status: 500, body: { error: 'Internal error' }, internal: true });
  });
});
