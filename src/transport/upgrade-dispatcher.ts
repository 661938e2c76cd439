// The one `upgrade` listener of the HTTP server: every upgrade is answered (101 by its surface, or an error) or destroyed.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logging/logger.js';
import { safeDecodeURIComponent } from '../lib/safe-decode.js';
import { toErrorResponse } from './http-errors.js';

/** A surface that accepts websocket upgrades on the paths its pattern matches. */
export interface UpgradeRoute {
  /** Anchored path pattern; its capture groups are the (still encoded) path parameters. */
  pattern: RegExp;
  /**
   * Authenticates and completes the handshake (101) or answers with `refuseUpgrade`. Params arrive
   * percent-decoded. A throw is answered like a REST error (500 and logged for a bug); it never reaches the process.
   */
  handle(req: http.IncomingMessage, socket: Duplex, head: Buffer, params: string[]): Promise<void>;
}

export interface UpgradeDispatcherOptions {
  logger: Logger;
  /** How long an upgrade may take until its handshake completes (Node's request timeouts stop applying to it). */
  handshakeTimeoutMs?: number;
}

/**
 * Answers an upgrade with a plain HTTP response carrying the REST error shape, then closes
 * the socket once the answer is written (the server's sockets are half-open by default, so
 * `end` alone would keep the descriptor until the client closes).
 */
export function refuseUpgrade(socket: Duplex, status: number, error: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error });
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/**
 * Registers the server's only `upgrade` listener. Nothing request-derived runs synchronously
 * inside the listener: the work starts on a microtask, so any throw becomes a rejection that is
 * answered and logged. Until the surface takes the socket over, it has an error listener (Node
 * removes its own on upgrade, and an unheard 'error' stops the process) and a handshake timeout.
 */
export function attachUpgradeDispatcher(server: http.Server, routes: readonly UpgradeRoute[], options: UpgradeDispatcherOptions): void {
  const timeoutMs = options.handshakeTimeoutMs ?? 10_000;
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    // The server hands over a net.Socket (typed as a Duplex): bound the time until the surface takes it.
    (socket as Duplex & Partial<Pick<Socket, 'setTimeout'>>).setTimeout?.(timeoutMs, () => socket.destroy());
    Promise.resolve()
      .then(() => dispatch(routes, req, socket, head))
      .catch((err: unknown) => {
        // The same mapping as REST: a database outage is a 503, only a bug is logged as an error.
        const res = toErrorResponse(err);
        if (res.internal) options.logger.error({ err, path: pathOf(req.url) }, 'upgrade failed');
        refuseUpgrade(socket, res.status, res.body.error, res.headers);
      });
  });
}

/** The path of a request target without its query; never throws. */
function pathOf(url: string | undefined): string {
  const target = url ?? '';
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

async function dispatch(routes: readonly UpgradeRoute[], req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const path = pathOf(req.url);
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: string[] = [];
    for (const raw of match.slice(1)) {
      const decoded = safeDecodeURIComponent(raw ?? '');
      if (decoded === null) return refuseUpgrade(socket, 400, 'Malformed path');
      params.push(decoded);
    }
    return route.handle(req, socket, head, params);
  }
  refuseUpgrade(socket, 404, 'Not found');
}
