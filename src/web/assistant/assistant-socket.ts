// The assistant page's socket /agents/assistant-agent/<name>: one conversation per name and person, shared with A2A.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import type { Authenticator } from '../../auth/authenticator.js';
import type { Principal } from '../../auth/principal.js';
import type { AssistantConversations } from '../../application/assistant/assistant-conversations.js';
import type { Logger } from '../../logging/logger.js';
import { refuseUpgrade, type UpgradeRoute } from '../../transport/upgrade-dispatcher.js';
import { toErrorResponse } from '../../transport/http-errors.js';
import { CROSS_SITE_MESSAGE, sameOriginRequest } from '../../transport/browser-protections.js';
import type { proxyOptions } from '../../transport/proxy-options.js';
import { UNSTORABLE_TEXT } from '../../transport/json-text-limits.js';
import { type WebsocketRegistry } from '../../transport/websocket-registry.js';
import { callerKey } from '../../auth/caller-key.js';
import { SocketMessageQueue } from '../../transport/socket-message-queue.js';

/** A conversation's name: letters, digits, `-` and `_`, up to 60. */
const PATH = /^\/agents\/assistant-agent\/([A-Za-z0-9_-]{1,60})$/;

/** Questions one connection may have unanswered (a person asks one at a time); more is a flood and closes it (1008). */
export const MAX_QUEUED_TURNS = 4;

/** Why the workspace password and other principals that are not a person cannot use the assistant (page and refusal). */
export const PERSON_ONLY_MESSAGE = 'The assistant keeps one conversation per person: sign in with your own account (Team page) to use it';

/** Text PostgreSQL can store (no NUL, no lone surrogate), as every other edge requires: never a database error. */
const storable = (min: number, max: number) => z.string().min(min).max(max).refine((t) => !UNSTORABLE_TEXT.test(t));

const clientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ask'), text: storable(1, 4000) }),
  z.strictObject({ type: z.literal('confirm'), taskId: storable(1, 200), confirm: z.boolean() }),
]);

export interface AssistantSocketDeps {
  auth: Authenticator;
  conversations: () => AssistantConversations | undefined;
  logger: Logger;
  koaOptions: ReturnType<typeof proxyOptions>;
  ownOrigins(ctx: Koa.Context): string[];
  /** The service's open websockets: the per-person and per-address caps shared with the live view, and the idle close. */
  sockets: WebsocketRegistry;
}

export class AssistantSocket {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  private readonly koa: Koa;

  constructor(private readonly deps: AssistantSocketDeps) {
    this.koa = new Koa(deps.koaOptions);
  }

  route(): UpgradeRoute {
    return { pattern: PATH, handle: (req, socket, head, [name]) => this.upgrade(req, socket, head, name) };
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.close(1001, 'Server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private context(req: http.IncomingMessage): Koa.Context {
    return this.koa.createContext(req, new http.ServerResponse(req));
  }

  /** A signed-in person only (the conversation is theirs), from our own origin; an unknown caller gets the refusal. */
  private async upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, name: string): Promise<void> {
    const ctx = this.context(req);
    const ok = sameOriginRequest({ origin: ctx.get('origin') || undefined, secFetchSite: ctx.get('sec-fetch-site') || undefined }, this.deps.ownOrigins(ctx));
    if (!ok) return refuseUpgrade(socket, 403, CROSS_SITE_MESSAGE);
    let principal: Principal;
    try {
      principal = await this.deps.auth.require(ctx, 'viewer');
    } catch (err) {
      const res = toErrorResponse(err);
      if (res.internal) throw err;
      return refuseUpgrade(socket, res.status, res.body.error, res.headers);
    }
    if (principal.kind !== 'person') return refuseUpgrade(socket, 403, PERSON_ONLY_MESSAGE);
    const conversations = this.deps.conversations();
    if (!conversations) return refuseUpgrade(socket, 503, 'The assistant is not available');
    // A client that reset the connection while it was authenticated is not counted (its close may have fired already).
    if (socket.destroyed) return;
    if (!this.deps.sockets.admit(socket, callerKey(principal), ctx.ip || 'unknown'))
      return refuseUpgrade(socket, 429, 'Too many open connections', { 'Retry-After': '30' });
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.connected(ws, conversations, principal, ctx.ip || null, name));
  }

  private async connected(ws: WebSocket, conversations: AssistantConversations, principal: Principal, ip: string | null, name: string): Promise<void> {
    const send = (m: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
    ws.on('error', () => ws.terminate());
    this.deps.sockets.keepAlive(ws);
    // One turn at a time per connection, in order; a client with more than MAX_QUEUED_TURNS unanswered is flooding
    // and is disconnected, and turns still queued when the socket closes never run (nobody is there to read them).
    const queue = new SocketMessageQueue(MAX_QUEUED_TURNS, (err) => {
      this.deps.logger.error({ err }, 'assistant turn failed');
      send({ type: 'error', error: 'Internal error' });
    });
    ws.once('close', () => queue.drop());
    ws.on('message', (data) => {
      const text = frameText(data);
      if (!queue.push(() => this.turn(send, conversations, principal, ip, name, text))) {
        queue.drop();
        ws.close(1008, 'Too many questions in flight');
      }
    });
    try {
      send({ type: 'history', turns: await conversations.history(principal, name) });
    } catch (err) {
      this.deps.logger.error({ err }, 'assistant history failed');
      send({ type: 'error', error: 'Internal error' });
    }
  }

  private async turn(send: (m: unknown) => void, conversations: AssistantConversations, principal: Principal, ip: string | null, name: string, text: string): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return send({ type: 'error', error: 'Messages are JSON' });
    }
    const parsed = clientMessage.safeParse(raw);
    if (!parsed.success) return send({ type: 'error', error: 'A message is { "type": "ask", "text" } or { "type": "confirm", "taskId", "confirm" }' });
    const m = parsed.data;
    try {
      const turn = m.type === 'ask' ? await conversations.ask(principal, ip, name, m.text) : await conversations.confirm(principal, ip, name, m.taskId, m.confirm);
      send({ type: 'turn', turn });
    } catch (err) {
      // The A2A handler's own refusals (an unknown or finished task) carry a JSON-RPC code and a message for the person.
      if (typeof (err as { code?: unknown }).code === 'number') return send({ type: 'error', error: (err as Error).message });
      throw err;
    }
  }
}

/** A text frame as UTF-8: ws hands a Buffer (binaryType 'nodebuffer', its default); a Buffer list is joined first. */
function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return data instanceof ArrayBuffer ? Buffer.from(data).toString() : data.toString();
}
