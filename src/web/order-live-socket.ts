// The live connection /agents/order-agent/:id (contract section 8): the order state on connect and after every
// committed change, and page actions re-checked against the session and role on every message.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/db.js';
import type { Engine } from '../engine/engine-module.js';
import type { Logger } from '../logging/logger.js';
import { readOrder } from '../orders/order-row.js';
import { sameOriginRequest, CROSS_SITE_MESSAGE } from '../transport/browser-protections.js';
import { toErrorResponse } from '../transport/http-errors.js';
import { zodIssues } from '../lib/zod-issues.js';
import { readOrderView } from '../orders/order-view.js';
import type { OperationRegistry } from '../application/operation-registry.js';
import { unauthorized } from '../domain/errors.js';
import { liveActionSchema, type LiveAction, type LiveServerMessage } from './order-live-messages.js';
import type { OrderChangeFeed } from './order-change-feed.js';
import { refuseUpgrade, type UpgradeRoute } from '../transport/upgrade-dispatcher.js';
import { UNSTORABLE_TEXT } from '../transport/json-text-limits.js';
import type { proxyOptions } from '../transport/proxy-options.js';
import { WEBSOCKETS_PER_HOLDER, type WebsocketRegistry } from '../transport/websocket-registry.js';
import { callerKey } from '../auth/caller-key.js';
import { SocketMessageQueue } from '../transport/socket-message-queue.js';

/** `/agents/order-agent/<order id>`; the id is percent-decoded by the upgrade dispatcher. */
const PATH = /^\/agents\/order-agent\/([^/?#]+)\/?$/;

/** Close codes: the session ended or no longer allows watching. */
export const CLOSE_UNAUTHENTICATED = 4401;
export const CLOSE_FORBIDDEN = 4403;

/**
 * Caps on open live connections (docs/security.md): per caller (a person across their sessions, shared with the
 * assistant: the registry's count) and per order. A browser with many tabs stays well inside them.
 */
export const LIVE_LIMITS = { perCaller: WEBSOCKETS_PER_HOLDER, perOrder: 100 } as const;

/** Unanswered actions one connection may have queued (a page sends one per click). */
const MAX_QUEUED_ACTIONS = 16;

export interface OrderLiveSocketDeps {
  auth: Authenticator;
  /** The page's buttons run registry operations as the signed-in caller (the registry checks the role). */
  operations: OperationRegistry;
  engine: Engine;
  db: Db;
  feed: OrderChangeFeed;
  logger: Logger;
  /** Koa's proxy options, so the upgrade's client address is read like every other request's. */
  koaOptions: ReturnType<typeof proxyOptions>;
  /** The app's own origins for this request (BASE_URL's; without BASE_URL also the address it was sent to). */
  ownOrigins(ctx: Koa.Context): string[];
  /** How often an idle connection re-checks its session (ends it after sign-out, disabling, idling). */
  recheckMs?: number;
  /** Open connections allowed per order. */
  perOrder?: number;
  /** The service's open websockets: the per-person and per-address caps shared with the assistant, and the idle close. */
  sockets: WebsocketRegistry;
}

/** The sockets watching one order; a change is read once and sent to all of them. */
interface OrderWatch {
  sockets: Set<WebSocket>;
  reading: boolean;
  again: boolean;
  unsubscribe(): void;
}

export class OrderLiveSocket {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  /** A Koa app used only to build request contexts for the Authenticator from upgrade requests. */
  private readonly koa: Koa;
  private readonly cleanups = new Set<() => void>();
  private readonly watches = new Map<string, OrderWatch>();
  /** Open (or opening) connections per order, counted from the handshake to the socket's close. */
  private readonly perOrder = new Map<string, number>();
  private readonly perOrderLimit: number;

  constructor(private readonly deps: OrderLiveSocketDeps) {
    this.koa = new Koa(deps.koaOptions);
    this.perOrderLimit = deps.perOrder ?? LIVE_LIMITS.perOrder;
  }

  /** The upgrade route the service's dispatcher calls for this surface. */
  route(): UpgradeRoute {
    return { pattern: PATH, handle: (req, socket, head, [orderId]) => this.upgrade(req, socket, head, orderId) };
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

  /** The caller of an action, resolved afresh (a session that ended since the upgrade is 401). */
  private async principal(req: http.IncomingMessage): Promise<Principal> {
    const principal = await this.deps.auth.authenticate(this.context(req));
    if (!principal) throw unauthorized('Authentication required');
    return principal;
  }

  private async upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, orderId: string): Promise<void> {
    const ctx = this.context(req);
    // Browser protections: opening the live connection needs our own Origin (bearer clients are exempt).
    if (!ctx.get('authorization')) {
      const ok = sameOriginRequest(
        { origin: ctx.get('origin') || undefined, secFetchSite: ctx.get('sec-fetch-site') || undefined },
        this.deps.ownOrigins(ctx),
      );
      if (!ok) return refuseUpgrade(socket, 403, CROSS_SITE_MESSAGE);
    }
    let principal: Principal;
    try {
      principal = await this.deps.auth.require(ctx, 'viewer');
    } catch (err) {
      const res = toErrorResponse(err);
      if (res.internal) throw err; // the dispatcher answers and logs it
      return refuseUpgrade(socket, res.status, res.body.error, res.headers);
    }
    if (UNSTORABLE_TEXT.test(orderId) || !(await readOrder(this.deps.db, orderId))) return refuseUpgrade(socket, 404, 'Order not found');
    // A client that reset the connection while it was authenticated has already closed (its 'close' event may
    // even have fired): it is not counted, or the listeners below would never uncount it and leak the caps.
    if (socket.destroyed) return;
    const tooMany = () => refuseUpgrade(socket, 429, 'Too many live connections', { 'Retry-After': '30' });
    if ((this.perOrder.get(orderId) ?? 0) >= this.perOrderLimit) return tooMany();
    // Counted until the socket closes, whether the handshake completes or ws refuses it. No await lies between the
    // checks and the listeners, so the close of a live socket is always seen.
    if (!this.deps.sockets.admit(socket, callerKey(principal), ctx.ip || 'unknown')) return tooMany();
    bump(this.perOrder, orderId, 1);
    socket.once('close', () => bump(this.perOrder, orderId, -1));
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, req, orderId));
  }

  /** Reads the order once and sends it to every socket watching it; later notices during a read collapse into one more read. */
  private refresh(orderId: string): void {
    const watch = this.watches.get(orderId);
    if (!watch) return;
    if (watch.reading) {
      watch.again = true;
      return;
    }
    watch.reading = true;
    readOrderView(this.deps.db, this.deps.engine, orderId)
      .then((state) => {
        const text = JSON.stringify({ type: 'state', state } satisfies LiveServerMessage);
        for (const ws of watch.sockets) if (ws.readyState === ws.OPEN) ws.send(text);
      })
      .catch((err) => this.deps.logger.warn({ err, orderId }, 'live state read failed'))
      .finally(() => {
        watch.reading = false;
        if (watch.again) {
          watch.again = false;
          this.refresh(orderId);
        }
      });
  }

  /** Adds a socket to the order's watch (subscribing to the change feed for the first one); returns its removal. */
  private watch(orderId: string, ws: WebSocket): () => void {
    let watch = this.watches.get(orderId);
    if (!watch) {
      const created: OrderWatch = { sockets: new Set(), reading: false, again: false, unsubscribe: () => undefined };
      created.unsubscribe = this.deps.feed.subscribe(orderId, () => this.refresh(orderId));
      this.watches.set(orderId, (watch = created));
    }
    const w = watch;
    w.sockets.add(ws);
    return () => {
      w.sockets.delete(ws);
      if (w.sockets.size === 0 && this.watches.get(orderId) === w) {
        w.unsubscribe();
        this.watches.delete(orderId);
      }
    };
  }

  private connected(ws: WebSocket, req: http.IncomingMessage, orderId: string): void {
    const send = (msg: LiveServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };

    // The first state comes from a read of its own; later changes arrive through the order's shared watch.
    const unwatch = this.watch(orderId, ws);
    readOrderView(this.deps.db, this.deps.engine, orderId)
      .then((state) => send({ type: 'state', state }))
      .catch((err) => this.deps.logger.warn({ err, orderId }, 'live state read failed'));

    // The session is re-checked on every action and periodically, so sign-out or disabling ends the connection.
    const recheck = setInterval(() => {
      this.deps.auth.require(this.context(req), 'viewer').catch((err) => {
        const res = toErrorResponse(err);
        ws.close(res.status === 401 ? CLOSE_UNAUTHENTICATED : CLOSE_FORBIDDEN, res.body.error.slice(0, 100));
      });
    }, this.deps.recheckMs ?? 30_000);
    recheck.unref();
    this.deps.sockets.keepAlive(ws);

    // Actions run one at a time per connection, in the order they arrive; a client that queues more than
    // MAX_QUEUED_ACTIONS unanswered actions is flooding and is disconnected (1008, policy violation). Actions
    // still queued when the socket closes never run: the person who clicked is no longer there to see the result.
    const queue = new SocketMessageQueue(MAX_QUEUED_ACTIONS, (err) => this.deps.logger.error({ err, orderId }, 'live action failed'));
    const cleanup = () => {
      unwatch();
      clearInterval(recheck);
      queue.drop();
      this.cleanups.delete(cleanup);
    };
    this.cleanups.add(cleanup);
    ws.on('close', cleanup);
    ws.on('error', () => ws.terminate());

    ws.on('message', (data, isBinary) => {
      const text = isBinary ? null : frameText(data);
      if (!queue.push(() => this.handleMessage(ws, req, orderId, text, send))) {
        queue.drop();
        ws.close(1008, 'Too many actions in flight');
      }
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
      principal = await this.principal(req);
    } catch (err) {
      const res = toErrorResponse(err);
      send({ type: 'error', requestId, status: res.status, error: res.body.error });
      // A session that ended ends the connection.
      if (res.status === 401) ws.close(CLOSE_UNAUTHENTICATED, 'Signed out');
      return;
    }
    try {
      // A role too low refuses this action only (the registry's 403).
      const result = await this.run(principal, req, orderId, action);
      send({ type: 'result', requestId, action: action.action, result });
    } catch (err) {
      const res = toErrorResponse(err);
      if (res.internal) this.deps.logger.error({ err, orderId, action: action.action }, 'live action failed');
      send({ type: 'error', requestId, status: res.status, error: res.body.error, ...(res.body.issues ? { issues: res.body.issues } : {}) });
    }
  }

  /** The action as its registry operation, run as the caller (its role is the operation's: spec "Roles"). */
  private async run(principal: Principal, req: http.IncomingMessage, orderId: string, action: LiveAction): Promise<unknown> {
    const call = { ip: this.context(req).ip ?? null };
    const operations = this.deps.operations;
    switch (action.action) {
      case 'approve':
      case 'reject':
        return operations.call('decideApproval', principal, { id: orderId, nodeId: action.nodeId, decision: action.action === 'approve' ? 'approved' : 'rejected', note: action.note }, call);
      case 'deliver_event':
        return operations.call('deliverEvent', principal, { id: orderId, event: action.event, payload: action.payload }, call);
      case 'cancel':
        return operations.call('cancelOrder', principal, { id: orderId, reason: action.reason ?? `Cancelled from the order page by ${principal.actor}` }, call);
      case 'retry_hold':
      case 'rollback_hold':
        return operations.call('resolveHold', principal, { id: orderId, nodeId: action.nodeId, action: action.action === 'retry_hold' ? 'retry' : 'rollback', note: action.note }, call);
    }
  }
}

/** Adds `delta` to a counter, dropping it at zero so the maps hold only callers and orders with open sockets. */
function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/** A text frame as UTF-8: ws hands a Buffer (binaryType 'nodebuffer', its default); a Buffer list is joined first. */
function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return data instanceof ArrayBuffer ? Buffer.from(data).toString() : data.toString();
}
