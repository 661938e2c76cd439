// The service's open websockets across every surface (contract section 8): capped per holder and per client address, closed when idle.
import { addressGroup } from '../platform/address-group.js';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { WebSocket } from 'ws';

/** Contract section 8: open websockets per person across their sessions, the live view and the assistant together. */
export const WEBSOCKETS_PER_HOLDER = 20;

/** Contract section 8: a websocket without a message or an answered ping for this long is closed. */
export const WEBSOCKET_IDLE_MS = 5 * 60_000;

/** How often an open websocket is pinged (browsers and `ws` answer pings by themselves). */
export const WEBSOCKET_PING_MS = 30_000;

/** Close code of an idle websocket (4000 + HTTP 408, beside the live view's 4401 and 4403). */
export const CLOSE_IDLE = 4408;

export interface WebsocketRegistryOptions {
  /** Open websockets per holder (a caller as `callerKey` counts them). */
  perHolder?: number;
  /** Open websockets per client address (as TRUST_PROXY resolves it), so many credentials from one place stay bounded too. */
  perAddress: number;
  /** Idle close and ping interval; tests shorten them. */
  idleMs?: number;
  pingMs?: number;
}

export class WebsocketRegistry {
  private readonly holders = new Map<string, number>();
  private readonly addresses = new Map<string, number>();
  private readonly perHolder: number;
  private readonly idleMs: number;
  private readonly pingMs: number;

  constructor(private readonly options: WebsocketRegistryOptions) {
    this.perHolder = options.perHolder ?? WEBSOCKETS_PER_HOLDER;
    this.idleMs = options.idleMs ?? WEBSOCKET_IDLE_MS;
    this.pingMs = options.pingMs ?? WEBSOCKET_PING_MS;
  }

  /**
   * Counts an upgrading socket against its holder and address (an IPv6 client by its /64: addressGroup) until the socket closes (whether the
   * handshake completes or not). False, and nothing counted, when either is full: the surface answers 429.
   * The caller checks `socket.destroyed` first and calls this with no await before the handshake, so the
   * close that uncounts it is always heard.
   */
  admit(socket: Duplex, holder: string, ip: string): boolean {
    const address = addressGroup(ip);
    if ((this.holders.get(holder) ?? 0) >= this.perHolder || (this.addresses.get(address) ?? 0) >= this.options.perAddress) return false;
    bump(this.holders, holder, 1);
    bump(this.addresses, address, 1);
    socket.once('close', () => {
      bump(this.holders, holder, -1);
      bump(this.addresses, address, -1);
    });
    return true;
  }

  /** Open websockets counted against a holder (tests and metrics). */
  openFor(holder: string): number {
    return this.holders.get(holder) ?? 0;
  }

  /**
   * Pings an open websocket every ping interval and closes it (4408) once neither a message nor a pong
   * has arrived for the idle time. Real time, not the test clock: moving the test clock by days must not
   * cut a test's connections; tests shorten the times instead.
   */
  keepAlive(ws: WebSocket): void {
    let last = performance.now();
    const seen = () => void (last = performance.now());
    ws.on('message', seen);
    ws.on('pong', seen);
    const timer = setInterval(() => {
      if (ws.readyState !== ws.OPEN) return;
      if (performance.now() - last >= this.idleMs) {
        clearInterval(timer);
        ws.close(CLOSE_IDLE, 'Idle: no message or answered ping in time');
        return;
      }
      ws.ping();
    }, Math.min(this.pingMs, this.idleMs));
    timer.unref();
    ws.once('close', () => clearInterval(timer));
  }
}

/** Adds `delta` to a counter, dropping it at zero so the maps hold only keys with open sockets. */
function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
