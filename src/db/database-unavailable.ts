// Recognises errors that mean PostgreSQL cannot answer right now (down, restarting, shutting down, pool
// exhausted past its connect timeout, a statement cancelled by the statement timeout): 503, not a bug's 500.

/** SQLSTATEs of an unavailable server: class 08 (connection exception) plus the ones listed here. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping and terminated the session
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** Socket errors of a connection that failed or broke. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Messages node-postgres uses for a lost connection or a pool connect timeout (errors without a code). */
const PG_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (e.code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(e.code) || SOCKET_CODES.has(e.code))) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => e.message === m || (e.message as string).startsWith(`${m}`))) return true;
  // A connect to several addresses fails with an AggregateError of the socket errors.
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((inner) => isDatabaseUnavailable(inner));
}

/**
 * SQLSTATE 57014 (query_canceled): the pool's statement timeout (STATEMENT_TIMEOUT_MS) or an
 * operator's pg_cancel_backend stopped the statement. The server is busy, not the code wrong:
 * the caller may retry later. Kept apart from isDatabaseUnavailable, as it is no outage.
 */
export function isStatementCancelled(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: unknown }).code === '57014';
}
