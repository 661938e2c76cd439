// Maps errors to the REST shape `{ error, issues? }` (spec "Errors"); the only place that does.
import { z } from 'zod';
import { DomainError, ValidationError, type ErrorKind, type ValidationIssue } from '../domain/errors.js';
import { isDatabaseUnavailable, isStatementCancelled } from '../db/database-unavailable.js';
import { isUnstorableText } from '../db/unstorable-text.js';
import { zodIssues } from '../lib/zod-issues.js';

export interface ErrorResponse {
  status: number;
  body: { error: string; issues?: ValidationIssue[] };
  headers?: Record<string, string>;
  /** True when the error is a bug: logged with its stack, answered without details. */
  internal: boolean;
}


/** An error raised by HTTP plumbing (raw-body, koa) carrying `status`/`expose`. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  message: string;
}

const statusMessages: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported media type',
};

/** The HTTP status of each kind of refusal: the one place an error becomes an HTTP status. */
export const HTTP_STATUS: Readonly<Record<ErrorKind, number>> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  throttled: 429,
  unavailable: 503,
};

export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof ValidationError)
    return { status: 400, body: { error: err.message, issues: err.issues }, internal: false };
  if (err instanceof z.ZodError)
    return { status: 400, body: { error: 'Invalid request', issues: zodIssues(err) }, internal: false };
  if (err instanceof DomainError) {
    const headers = typeof err.details?.retryAfterSeconds === 'number'
      ? { 'Retry-After': String(err.details.retryAfterSeconds) } : undefined;
    const status = HTTP_STATUS[err.kind];
    // A DomainError is raised on purpose (a 503 for an adapter that is off is an answer, not a bug), so it is
    // never logged as an internal error: one unauthenticated request per line would flood the error log.
    return { status, body: { error: err.message }, headers, internal: false };
  }
  const http = err as HttpLikeError;
  const status = http?.status ?? http?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, body: { error: statusMessages[status] ?? 'Bad request' }, internal: false };
  // Text PostgreSQL cannot store (a NUL character in a query or path parameter, an untranslatable character).
  if (isUnstorableText(err))
    return { status: 400, body: { error: 'Invalid text: NUL characters and unpaired surrogates are not accepted' }, internal: false };
  // PostgreSQL down or restarting, or a statement cut by the statement timeout (57014): 503 and no details.
  if (isDatabaseUnavailable(err) || isStatementCancelled(err))
    return { status: 503, body: { error: 'Service temporarily unavailable' }, headers: { 'Retry-After': '1' }, internal: false };
  return { status: 500, body: { error: 'Internal error' }, internal: true };
}
