// What the HTTP adapters of the payment and carrier ports share: their stored settings, the request shape, and how an answer's status is read.
import type { ExternalAnswer, ExternalRequest } from '../engine/node-type.js';
import { RetryableError, TerminalError } from '../domain/errors.js';
import { isSuccessStatus, mayPassLater } from '../engine/runtime/run-decisions.js';

/** One port's HTTP adapter as the workspace row keeps it (`workspace.adapters.<port>`). */
export interface StoredHttpAdapter {
  /** Base URL without a trailing slash; paths of docs/integrations.md are appended. */
  url: string;
  /** An integration id whose secret signs every request (`X-Service-Signature`), or null. */
  secret: string | null;
  timeoutMs: number;
}

/** A POST of `body` to `path` under the adapter's URL; the host adds Idempotency-Key and the signature. */
export function adapterPost(adapter: StoredHttpAdapter, path: string, body: unknown): ExternalRequest {
  return { method: 'POST', url: `${adapter.url}${path}`, headers: {}, body, timeoutMs: adapter.timeoutMs, signWith: adapter.secret };
}

/** A path segment from a remote id (ids are the remote service's: never trusted to be URL-safe). */
export function segment(remoteId: string): string {
  return encodeURIComponent(remoteId);
}

/** What the answer says about itself: the body's `message` (or `error`) when it gives one, cut for the timeline. */
function remoteReason(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const text = typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : null;
  return text ? text.slice(0, 200) : null;
}

/** How a failed answer of a port operation is reported: `what` names the operation, `refusedCode` the refusal. */
export interface AnswerMeaning {
  /** e.g. `The payment gateway declined the authorization`. */
  refused: string;
  refusedCode: string;
  /** e.g. `The payment gateway failed to authorize`. */
  failed: string;
  failedCode: string;
}

/**
 * The body of a 2xx answer, or the error the contract maps the answer to: a 4xx other than 408 and
 * 429 is the service's refusal (TerminalError: never retried); no answer, 408, 429 and 5xx may pass
 * later (RetryableError: the step's retry policy applies); an answer the host marked terminal (the
 * signing integration is revoked) is a TerminalError; anything else (a redirect) is a TerminalError.
 */
export function successBody(answer: ExternalAnswer, meaning: AnswerMeaning): Record<string, unknown> {
  const { status } = answer;
  if (isSuccessStatus(status)) {
    if (typeof answer.body === 'object' && answer.body !== null && !Array.isArray(answer.body)) return answer.body as Record<string, unknown>;
    throw new TerminalError(`${meaning.failed}: HTTP ${status} without a JSON object body`, meaning.failedCode);
  }
  const why = status !== null ? `HTTP ${status}` : (answer.error ?? 'no answer');
  const said = remoteReason(answer.body);
  const detail = said ? `${why}: ${said}` : why;
  if (status !== null && status >= 400 && status < 500 && !mayPassLater(status, false)) throw new TerminalError(`${meaning.refused} (${detail})`, meaning.refusedCode);
  if (mayPassLater(status, answer.terminal)) throw new RetryableError(`${meaning.failed} (${detail})`, undefined, meaning.failedCode);
  throw new TerminalError(`${meaning.failed} (${detail})`, meaning.failedCode);
}

/** A non-empty string id at `key` of a success body (up to 200 characters), or a TerminalError naming what is missing. */
export function remoteId(body: Record<string, unknown>, key: string, meaning: AnswerMeaning, where = key): string {
  const value = body[key];
  if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  throw new TerminalError(`${meaning.failed}: the answer has no \`${where}\` (a string of 1-200 characters)`, meaning.failedCode);
}
