// The HTTP server with limits against slow and numerous clients (docs/security.md "Connection limits").
import { addressGroup } from '../platform/address-group.js';
import http from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Open sockets at once; further connections are closed as they arrive (MAX_CONNECTIONS). */
  maxConnections: number;
  /**
   * Open sockets from one remote address (MAX_CONNECTIONS_PER_ADDRESS), so one client cannot hold all of
   * `maxConnections`; further connections from it are closed as they arrive. Null behind trusted proxies,
   * where every socket's address is a proxy's and the proxies bound their clients instead.
   */
  maxConnectionsPerAddress: number | null;
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
  if (limits.maxConnectionsPerAddress !== null) capPerAddress(server, limits.maxConnectionsPerAddress);
  return server;
}

/**
 * Counts accepted sockets per client address: an IPv4 address, or an IPv6 client's /64 (addressGroup; an IPv4
 * client on a dual-stack listener, `::ffff:a.b.c.d`, counts as its IPv4 address). Nothing has been read from a socket when it is refused, so it is
 * destroyed without an answer, as Node does past `maxConnections`. Upgraded sockets stay counted until they close.
 */
function capPerAddress(server: http.Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = addressGroup(socket.remoteAddress ?? 'unknown');
    const n = open.get(address) ?? 0;
    if (n >= max) {
      socket.destroy();
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
