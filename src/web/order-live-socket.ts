// The live connection /agents/order-agent/:id (contract section 8): the order state on connect and after every
// committed change, and page actions re-checked against the session and role on every message.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/db.js';
import type { Engine } from '../engine/engine-module.js';
import type { Logger } from '../logging/logger.js';
import { readOrder } from '../engine/runtime/order-row.js';
import { sameOriginRequest, CROSS_SITE_MESSAGE } from '../http/middleware/browser-protections.js';
import { toErrorResponse, zodIssues } from '../http/http-errors.js';
import { readOrderView } from '../app/orders/order-view.js';
import { cancelOrder, decideOrderApproval, deliverOrderEvent } from '../app/orders/order-commands.js';
import { ACTION_ROLE, liveActionSchema, type LiveAction, type LiveServerMessage } from './order-live-messages.js';
import type { OrderChangeFeed } from './order-change-feed.js';

const PATH = /^\/agents\/order-agent\/([^/?#]+)\/?$/;

/** Close codes: the session ended or no longer allows watching. */
export const CLOSE_UNAUTHENTICATED = 4401;
export const CLOSE_FORBIDDEN = 4403;

export interface OrderLiveSocketDeps {
  auth: Authenticator;
  engine: Engine;
  db: Db;
  feed: OrderChangeFeed;
  logger: Logger;
  trustProxy: boolean;
  /** The app's own origins for this request (BASE_URL's; without BASE_URL also the address it was sent to). */
  ownOrigins(ctx: Koa.Context): string[];
  /** How often an idle connection re-checks its session (ends it after sign-out, disabling, idling). */
  recheckMs?: number;
}

/** Refuses an upgrade with a plain HTTP answer carrying the REST error shape. */
function refuse(socket: Duplex, status: number, error: string): void {
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export class OrderLiveSocket {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  /** A Koa app used only to build request contexts for the Authenticator from upgrade requests. */
  private readonly koa: Koa;
  private readonly cleanups = new Set<() => void>();

  constructor(private readonly deps: OrderLiveSocketDeps) {
    this.koa = new Koa({ proxy: deps.trustProxy });
  }

  attach(server: http.Server): void {
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0];
      const match = PATH.exec(path);
      if (!match) return; // another surface's socket
      void this.upgrade(req, socket, head, decodeURIComponent(match[1])).catch((err) => {
        this.deps.logger.error({ err }, 'live connection upgrade failed');
        refuse(socket, 500, 'Internal error');
      });
    });
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups) cleanup();
    for (const client of this.wss.clients) client.close(1001, 'Server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** A fresh request context per check, so nothing cached from an earlier check is reused. */
  private context(req: http.IncomingMessage): Koa.Context {
    return this.koa.createContext(req, new http.ServerResponse(req));
  }

  private async principal(req: http.IncomingMessage, need: Parameters<Authenticator['require']>[1]): Promise<Principal> {
    return this.deps.auth.require(this.context(req), need);
  }

  private async upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, orderId: string): Promise<void> {
    const ctx = this.context(req);
    // Browser protections: opening the live connection needs our own Origin (bearer clients are exempt).
    if (!ctx.get('authorization')) {
      const ok = sameOriginRequest(
        { origin: ctx.get('origin') || undefined, secFetchSite: ctx.get('sec-fetch-site') || undefined },
        this.deps.ownOrigins(ctx),
      );
      if (!ok) return refuse(socket, 403, CROSS_SITE_MESSAGE);
    }
    try {
      await this.deps.auth.require(ctx, 'viewer');
    } catch (err) {
      const res = toErrorResponse(err);
      return refuse(socket, res.status, res.body.error);
    }
    if (!(await readOrder(this.deps.db, orderId))) return refuse(socket, 404, 'Order not found');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, req, orderId));
  }

  private connected(ws: WebSocket, req: http.IncomingMessage, orderId: string): void {
    const send = (msg: LiveServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };

    // State pushes are coalesced: while one read runs, later notices collapse into one more read.
    let reading: Promise<void> | null = null;
    let again = false;
    const pushState = (): void => {
      if (reading) {
        again = true;
        return;
      }
      reading = readOrderView(this.deps.db, this.deps.engine, orderId)
        .then((state) => send({ type: 'state', state }))
        .catch((err) => this.deps.logger.warn({ err, orderId }, 'live state read failed'))
        .finally(() => {
          reading = null;
          if (again) {
            again = false;
            pushState();
          }
        });
    };

    const unsubscribe = this.deps.feed.subscribe(orderId, pushState);
    pushState();

    // The session is re-checked on every action and periodically, so sign-out or disabling ends the connection.
    const recheck = setInterval(() => {
      this.principal(req, 'viewer').catch((err) => {
        const res = toErrorResponse(err);
        ws.close(res.status === 401 ? CLOSE_UNAUTHENTICATED : CLOSE_FORBIDDEN, res.body.error.slice(0, 100));
      });
    }, this.deps.recheckMs ?? 30_000);
    recheck.unref();
    let alive = true;
    const ping = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, 30_000);
    ping.unref();
    ws.on('pong', () => (alive = true));

    const cleanup = () => {
      unsubscribe();
      clearInterval(recheck);
      clearInterval(ping);
      this.cleanups.delete(cleanup);
    };
    this.cleanups.add(cleanup);
    ws.on('close', cleanup);
    ws.on('error', () => ws.terminate());

    // Actions run one at a time per connection, in the order they arrive.
    let queue: Promise<void> = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      queue = queue.then(() => this.handleMessage(ws, req, orderId, isBinary ? null : data.toString(), send));
    });
  }

  private async handleMessage(ws: WebSocket, req: http.IncomingMessage, orderId: string, text: string | null, send: (m: LiveServerMessage) => void): Promise<void> {
    let raw: unknown;
    try {
      raw = text === null ? undefined : JSON.parse(text);
    } catch {
      return send({ type: 'error', status: 400, error: 'Messages are JSON' });
    }
    const parsed = liveActionSchema.safeParse(raw);
    const requestId = typeof (raw as { requestId?: unknown })?.requestId === 'string' ? (raw as { requestId: string }).requestId : undefined;
    if (!parsed.success) return send({ type: 'error', requestId, status: 400, error: 'Invalid action', issues: zodIssues(parsed.error) });
    const action = parsed.data;
    let principal: Principal;
    try {
      principal = await this.principal(req, ACTION_ROLE[action.action]);
    } catch (err) {
      const res = toErrorResponse(err);
      send({ type: 'error', requestId, status: res.status, error: res.body.error });
      // A role too low refuses this action only; a session that ended ends the connection.
      if (res.status === 401) ws.close(CLOSE_UNAUTHENTICATED, 'Signed out');
      return;
    }
    try {
      const result = await this.run(principal, orderId, action);
      send({ type: 'result', requestId, action: action.action, result });
    } catch (err) {
      const res = toErrorResponse(err);
      if (res.internal) this.deps.logger.error({ err, orderId, action: action.action }, 'live action failed');
      send({ type: 'error', requestId, status: res.status, error: res.body.error, ...(res.body.issues ? { issues: res.body.issues } : {}) });
    }
  }

  private async run(principal: Principal, orderId: string, action: LiveAction): Promise<unknown> {
    const { engine } = this.deps;
    switch (action.action) {
      case 'approve':
      case 'reject':
        await decideOrderApproval(engine, principal, orderId, action.nodeId, {
          decision: action.action === 'approve' ? 'approved' : 'rejected',
          note: action.note,
        });
        return { ok: true };
      case 'deliver_event':
        return deliverOrderEvent(engine, orderId, action.event, action.payload);
      case 'cancel':
        await cancelOrder(engine, orderId, action.reason ?? `Cancelled from the order page by ${principal.actor}`);
        return { ok: true };
    }
  }
}
