// Error types that tell the runtime and the edge what to do (DESIGN rule 3).

/** A rule of the domain was broken; `code` is stable, `status` is the HTTP status at the edge. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 400,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
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
    super('validation', message, 400);
    this.name = 'ValidationError';
  }
}

/** A step failure that must not be retried: the step's failure path runs at once. */
export class TerminalError extends Error {
  constructor(message: string, readonly code = 'terminal') {
    super(message);
    this.name = 'TerminalError';
  }
}

/** A step failure worth retrying, optionally after `retryAfterMs`. */
export class RetryableError extends Error {
  constructor(message: string, readonly retryAfterMs?: number, readonly code = 'retryable') {
    super(message);
    this.name = 'RetryableError';
  }
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`, 404);
export const conflict = (message: string): DomainError => new DomainError('conflict', message, 409);
export const forbidden = (message = 'Forbidden'): DomainError => new DomainError('forbidden', message, 403);
export const unauthorized = (message = 'Unauthorized'): DomainError => new DomainError('unauthorized', message, 401);
