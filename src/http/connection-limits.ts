// The HTTP server with limits against slow and numerous clients (docs/security.md "Connection limits").
import http from 'node:http';

export interface ConnectionLimits {
  /** Open sockets at once; further connections are closed as they arrive (MAX_CONNECTIONS). */
  maxConnections: number;
  /** Whole request, headers and body, from the first byte (REQUEST_TIMEOUT_MS); answered 408 and closed. */
  requestTimeoutMs: number;
}

/** The headers of a request must arrive within this (never more than the whole-request timeout). */
const HEADERS_TIMEOUT_MS = 10_000;
/** How often Node checks running requests against the timeouts (its default, 30 s, would let a slow body overstay by that much). */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Node's defaults let a client trickle a body for 300 s and open sockets until the descriptor
 * limit; bodies of at most a few MiB need far less. Upgraded sockets are outside these timeouts:
 * the upgrade dispatcher gives them a handshake timeout of its own.
 */
export function createLimitedServer(handler: http.RequestListener, limits: ConnectionLimits): http.Server {
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, limits.requestTimeoutMs),
      connectionsCheckingInterval: CHECK_INTERVAL_MS,
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
