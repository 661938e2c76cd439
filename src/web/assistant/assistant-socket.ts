// The assistant page's socket /agents/assistant-agent/<name>: one conversation per name and person, shared with A2A.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import type { Authenticator } from '../../auth/authenticator.js';
import type { Principal } from '../../auth/principal.js';
import type { A2aConversations } from '../../a2a/a2a-conversations.js';
import type { Logger } from '../../logging/logger.js';
import { refuseUpgrade, type UpgradeRoute } from '../../http/upgrade-dispatcher.js';
import { toErrorResponse } from '../../http/http-errors.js';
import { CROSS_SITE_MESSAGE, sameOriginRequest } from '../../http/middleware/browser-protections.js';
import type { proxyOptions } from '../../http/proxy-options.js';

/** A conversation's name: letters, digits, `-` and `_`, up to 60. */
const PATH = /^\/agents\/assistant-agent\/([A-Za-z0-9_-]{1,60})$/;

const clientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ask'), text: z.string().min(1).max(4000) }),
  z.strictObject({ type: z.literal('confirm'), taskId: z.string().min(1).max(200), confirm: z.boolean() }),
]);

export interface AssistantSocketDeps {
  auth: Authenticator;
  conversations: () => A2aConversations | undefined;
  logger: Logger;
  koaOptions: ReturnType<typeof proxyOptions>;
  ownOrigins(ctx: Koa.Context): string[];
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
    if (principal.kind !== 'person') return refuseUpgrade(socket, 403, 'The assistant keeps conversations per person: sign in with your own account');
    const conversations = this.deps.conversations();
    if (!conversations) return refuseUpgrade(socket, 503, 'The assistant is not available');
    if (socket.destroyed) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.connected(ws, conversations, principal, ctx.ip || null, name));
  }

  private async connected(ws: WebSocket, conversations: A2aConversations, principal: Principal, ip: string | null, name: string): Promise<void> {
    const send = (m: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
    ws.on('error', () => undefined);
    let queue = Promise.resolve();
    ws.on('message', (data) => {
      // One turn at a time per connection, in order.
      queue = queue.then(() => this.turn(send, conversations, principal, ip, name, data.toString())).catch((err) => {
        this.deps.logger.error({ err }, 'assistant turn failed');
        send({ type: 'error', error: 'Internal error' });
      });
    });
    try {
      send({ type: 'history', turns: await conversations.history(principal, name) });
    } catch (err) {
      this.deps.logger.error({ err }, 'assistant history failed');
      send({ type: 'error', error: 'Internal error' });
    }
  }

  private async turn(send: (m: unknown) => void, conversations: A2aConversations, principal: Principal, ip: string | null, name: string, text: string): Promise<void> {
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
