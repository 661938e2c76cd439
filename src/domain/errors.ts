// Error types that tell the runtime and the edge what to do (DESIGN rule 3).

/**
 * What kind of refusal an error is, whatever the transport: each transport maps a kind once
 * (HTTP: `src/transport/http-errors.ts`; JSON-RPC and MCP beside their own bindings). No HTTP status
 * lives outside the HTTP binding.
 */
export type ErrorKind =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** Understood but refused as a whole (the same idempotency key with other contents). */
  | 'unprocessable'
  | 'too_large'
  | 'unsupported_media'
  | 'throttled'
  | 'unavailable';

/** A rule of the domain was broken; `code` is stable and specific (`not_waiting`), `kind` says what sort of refusal. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: ErrorKind = 'invalid_input',
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A caller below the role an operation needs (403): faces that answer with a page of their own (the identity pages) tell it apart from other refusals. */
export class RoleRequiredError extends DomainError {
  constructor(readonly role: string) {
    super('forbidden', `This needs the ${role} role`, 'forbidden');
    this.name = 'RoleRequiredError';
  }
}

/** One invalid field in a request, as the 400 `issues` list reports it. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** A request body or query that failed validation: 400 with `issues`. */
export class ValidationError extends DomainError {
  constructor(readonly issues: ValidationIssue[], message = 'Invalid request') {
    super('validation', message, 'invalid_input');
    this.name = 'ValidationError';
  }
}

/** A step failure that must not be retried: the step's failure path runs at once (outside a step: unprocessable). */
export class TerminalError extends DomainError {
  constructor(message: string, code = 'terminal') {
    super(code, message, 'unprocessable');
    this.name = 'TerminalError';
  }
}

/** A step failure worth retrying, optionally after `retryAfterMs` (outside a step: unavailable, with Retry-After). */
export class RetryableError extends DomainError {
  constructor(message: string, readonly retryAfterMs?: number, code = 'retryable') {
    super(code, message, 'unavailable', retryAfterMs === undefined ? undefined : { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
    this.name = 'RetryableError';
  }
}

/** Kinds of refusal that can pass with time (a dependency down, a limit reached): worth a retry. */
const TRANSIENT_KINDS: ReadonlySet<ErrorKind> = new Set(['unavailable', 'throttled']);

/**
 * How a step failure is treated, one rule for every error (DESIGN rule 3): a `TerminalError` or any
 * other refusal (`DomainError` of a lasting kind: invalid input, not found, conflict...) fails the
 * step at once, since a retry would meet the same refusal; a `RetryableError`, a transient refusal
 * (`unavailable`, `throttled`) and an unexpected error (a bug, a dropped connection) are retried by the
 * node's policy (Temporal and Restate do the same); each attempt's message is kept in the node's
 * error and the timeline.
 */
export function isTerminalFailure(err: unknown): boolean {
  if (err instanceof RetryableError) return false;
  if (err instanceof DomainError) return !TRANSIENT_KINDS.has(err.kind);
  return false;
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`, 'not_found');
export const conflict = (message: string): DomainError => new DomainError('conflict', message, 'conflict');
export const forbidden = (message = 'Forbidden'): DomainError => new DomainError('forbidden', message, 'forbidden');
export const unauthorized = (message = 'Unauthorized'): DomainError => new DomainError('unauthorized', message, 'unauthenticated');
