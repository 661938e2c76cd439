// POST /a2a (JSON-RPC, A2A 1.0 and 0.3 on one endpoint, SSE for streams) and the agent card, mounted on Koa.
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { Extensions, SSE_HEADERS, formatSSEErrorEvent, formatSSEEvent, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { JsonRpcTransportHandler, defaultServerCallContextBuilder, type A2ARequestHandler } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { LEGACY_HTTP_EXTENSION_HEADER, LEGACY_METHOD_TASKS_RESUBSCRIBE } from '@a2a-js/sdk/compat/v0_3';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { Authenticator } from '../auth/authenticator.js';
import { authorize } from '../auth/authorize.js';
import { DomainError } from '../domain/errors.js';
import { readRawBody, JSON_LIMIT } from '../transport/read-body.js';
import { jsonTextProblem } from '../transport/json-text-limits.js';
import type { Logger } from '../logging/logger.js';
import { A2aCaller } from './a2a-caller.js';
import { A2A_PATH, AGENT_CARD_PATH } from './a2a-agent-card.js';
import { requestVersion, type WireVersion } from './a2a-version.js';

/** Spec "Limits": the agent card is cached 5 minutes. */
const CARD_MAX_AGE_S = 300;

export interface A2aEndpointDeps {
  auth: Authenticator;
  logger: Logger;
  /** The request handler (built once the public address is known). */
  handler(): A2ARequestHandler;
  /** The 1.0 and 0.3 cards as JSON. */
  card(version: WireVersion): Record<string, unknown>;
  /** `WWW-Authenticate` for a request without a credential (the OAuth resource metadata, once connected apps exist). */
  challenge?(ctx: Context, error?: 'invalid_token'): string;
}

type RpcResponse = { jsonrpc: '2.0'; id: unknown; error?: { code: number; message: string }; result?: unknown };

function rpcError(id: unknown, code: number, message: string): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Spec: an Origin that is not an http(s) origin (`null`, a browser extension, a file) is refused. */
function httpOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin.replace(/\/$/, '');
  } catch {
    return false;
  }
}

/** A JSON-RPC 2.0 request object: jsonrpc "2.0", a string method, an id that is a string, an integer or null. */
function envelopeProblem(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return true;
  const b = body as Record<string, unknown>;
  if (b.jsonrpc !== '2.0' || typeof b.method !== 'string' || b.method === '') return true;
  if ('id' in b && !(typeof b.id === 'string' || b.id === null || (typeof b.id === 'number' && Number.isInteger(b.id)))) return true;
  return false;
}

export function a2aRouter(deps: A2aEndpointDeps): Router {
  const router = new Router();
  const transports = new WeakMap<A2ARequestHandler, { v1: JsonRpcTransportHandler; v03: LegacyJsonRpcTransportHandler }>();
  const transportsFor = (handler: A2ARequestHandler) => {
    let t = transports.get(handler);
    if (!t) transports.set(handler, (t = { v1: new JsonRpcTransportHandler(handler), v03: new LegacyJsonRpcTransportHandler(handler) }));
    return t;
  };

  router.get(AGENT_CARD_PATH, (ctx) => {
    const header = ctx.get('a2a-version').trim();
    const major = /^(\d+)\./.exec(header);
    const version: WireVersion = major && Number(major[1]) >= 1 ? '1.0' : '0.3';
    const body = JSON.stringify(deps.card(version));
    const etag = `W/"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    ctx.set('Vary', 'A2A-Version');
    ctx.set('Cache-Control', `public, max-age=${CARD_MAX_AGE_S}`);
    ctx.set('ETag', etag);
    if (ctx.get('if-none-match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = body;
  });

  router.all(A2A_PATH, async (ctx) => {
    // Contract 12: the method check comes first, with or without a credential.
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      ctx.status = 405;
      ctx.body = { error: 'Method not allowed: /a2a takes JSON-RPC over POST' };
      return;
    }
    const origin = ctx.get('origin').trim();
    if (origin && !httpOrigin(origin)) throw new DomainError('bad_origin', 'Origin must be an http or https origin', 'forbidden');
    // Bearer only: a dashboard cookie never stands behind an agent's request.
    const principal = ctx.get('authorization') ? await deps.auth.authenticate(ctx).catch((err: unknown) => {
      // A refused bearer (wrong, expired, revoked, for the other endpoint) is RFC 6750's invalid_token.
      if (err instanceof DomainError && err.kind === 'unauthenticated') ctx.set('WWW-Authenticate', deps.challenge?.(ctx, 'invalid_token') ?? 'Bearer');
      throw err;
    }) : null;
    if (!principal) ctx.set('WWW-Authenticate', deps.challenge?.(ctx) ?? 'Bearer');
    authorize(principal, 'viewer');

    const type = ctx.get('content-type').split(';', 1)[0].trim().toLowerCase();
    if (type && type !== 'application/json' && type !== 'application/a2a+json') {
      ctx.body = rpcError(null, A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, `Unsupported Content-Type "${type}"; expected application/json`);
      return;
    }
    const text = (await readRawBody(ctx, JSON_LIMIT)).toString('utf8');
    // Nesting and text PostgreSQL cannot store are refused before parsing (json-text-limits.ts).
    const problem = jsonTextProblem(text);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      if (!problem) {
        ctx.body = rpcError(null, A2A_ERROR_CODE.PARSE_ERROR, 'Parse error: the body is not JSON');
        return;
      }
    }
    const id = typeof body === 'object' && body !== null && 'id' in body ? (body).id : null;
    if (problem || envelopeProblem(body)) {
      ctx.body = rpcError(typeof id === 'string' || typeof id === 'number' ? id : null, A2A_ERROR_CODE.INVALID_REQUEST, problem ?? 'Invalid Request: not a JSON-RPC 2.0 request object');
      return;
    }
    const method = (body as { method: string }).method;
    const version = requestVersion(ctx.get('a2a-version'), method);
    if (!version) {
      ctx.body = rpcError(id, A2A_ERROR_CODE.VERSION_NOT_SUPPORTED, `A2A-Version ${ctx.get('a2a-version')} is not supported; this agent speaks 1.0 and 0.3`);
      return;
    }
    const legacy = version === '0.3';
    const context = defaultServerCallContextBuilder({
      extensions: Extensions.parseServiceParameter(legacy ? ctx.get(LEGACY_HTTP_EXTENSION_HEADER) || ctx.get(HTTP_EXTENSION_HEADER) : ctx.get(HTTP_EXTENSION_HEADER)),
      user: new A2aCaller(principal!, ctx.ip || null),
      headers: {},
      requestedVersion: version,
    });
    const transport = transportsFor(deps.handler());
    const rpc = body as Record<string, unknown>;
    const out = await (legacy ? transport.v03.handle(rpc, context) : transport.v1.handle(rpc, context));
    if (context.activatedExtensions?.length) ctx.set(legacy ? LEGACY_HTTP_EXTENSION_HEADER : HTTP_EXTENSION_HEADER, context.activatedExtensions.join(', '));
    if (!isStream(out)) {
      ctx.body = out;
      return;
    }
    // A stream's first item is awaited before committing to SSE, so an error raised at once (unknown
    // task, finished task) is a plain JSON-RPC error answer, as the SDK's own binding does; 0.3's
    // tasks/resubscribe always answers SSE.
    const iterator = out[Symbol.asyncIterator]();
    const mapError = (err: unknown) => (legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(err) : JsonRpcTransportHandler.mapToJSONRPCError(err));
    let first: IteratorResult<unknown> | null = null;
    if (!(legacy && method === LEGACY_METHOD_TASKS_RESUBSCRIBE)) {
      try {
        first = await iterator.next();
      } catch (err) {
        ctx.body = { jsonrpc: '2.0', id, error: mapError(err) };
        return;
      }
    }
    const stream = new PassThrough();
    stream.on('error', () => undefined);
    ctx.status = 200;
    ctx.set(SSE_HEADERS);
    ctx.body = stream;
    let closed = false;
    ctx.res.once('close', () => {
      closed = true;
      void iterator.return?.(undefined);
    });
    const write = (chunk: string) => {
      if (!closed && !stream.destroyed) stream.write(chunk);
    };
    void (async () => {
      try {
        if (first && !first.done) write(formatSSEEvent(first.value));
        if (!first?.done)
          for (;;) {
            const next = await iterator.next();
            if (next.done || closed) break;
            write(formatSSEEvent(next.value));
          }
      } catch (err) {
        deps.logger.warn({ err: (err as Error).message }, 'A2A stream ended with an error');
        write(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(err) }));
      } finally {
        stream.end();
      }
    })();
  });
  return router;
}

function isStream(v: unknown): v is AsyncGenerator<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as AsyncGenerator<unknown>)[Symbol.asyncIterator] === 'function';
}
