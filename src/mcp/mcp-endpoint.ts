// POST /mcp: the MCP server over Streamable HTTP (stateless, official SDK), behind our Origin rule, body limits and bearer auth.
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { OperationRegistry } from '../application/operation-registry.js';
import type { CallContext } from '../application/operation.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import { authorize } from '../auth/authorize.js';
import { DomainError } from '../domain/errors.js';
import { checkJsonText, readRawBody, JSON_LIMIT } from '../transport/read-body.js';
import type { Logger } from '../logging/logger.js';
import { mcpServerFor } from './mcp-server-for.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointDeps {
  registry: OperationRegistry;
  auth: Authenticator;
  logger: Logger;
  serverName: string;
  version: string;
  /** The app's own origins for this request. */
  ownOrigins(ctx: Context): string[];
  /** `WWW-Authenticate` for a request without a credential (the OAuth resource metadata, once connected apps exist). */
  challenge?(ctx: Context, error?: 'invalid_token'): string;
}

/** What the SDK hands our server factory: our caller, resolved before the SDK sees the request, and the request's call context. */
interface McpCaller {
  principal: Principal;
  /** One per HTTP request: every tool call of a batch shares it (and its per-request budgets). */
  call: CallContext;
}

/**
 * The MCP route. Before the SDK: an `Origin` that is not ours is a 403 (MCP's DNS-rebinding
 * rule; clients that are not browsers send none); the caller must authenticate (401 with a
 * challenge) and may not be restricted (403: a temporary password first); the body is read
 * under the API's limits (1 MiB, nesting, text PostgreSQL can store). Then one stateless
 * server per request, whose tools are the caller's.
 */
export function mcpRouter(deps: McpEndpointDeps): Router {
  const handler = createMcpHandler(
    (request) => {
      const caller = request.authInfo?.extra?.caller as McpCaller | undefined;
      if (!caller) throw new Error('MCP request without a resolved caller');
      return mcpServerFor({ registry: deps.registry, name: deps.serverName, version: deps.version }, caller.principal, caller.call);
    },
    {
      legacy: 'stateless',
      maxRequestBodySize: JSON_LIMIT,
      onerror: (err) => deps.logger.warn({ err: err.message }, 'MCP request refused or failed'),
    },
  );
  const serve = toNodeHandler(handler);
  const router = new Router();
  router.all(MCP_PATH, async (ctx) => {
    const origin = ctx.get('origin').trim();
    if (origin && !deps.ownOrigins(ctx).includes(origin.toLowerCase())) throw new DomainError('cross_origin', 'Origin not allowed', 'forbidden');
    const principal = await deps.auth.authenticate(ctx).catch((err: unknown) => {
      // A refused bearer (wrong, expired, revoked, for the other endpoint) is RFC 6750's invalid_token.
      if (deps.challenge && err instanceof DomainError && err.kind === 'unauthenticated') ctx.set('WWW-Authenticate', deps.challenge(ctx, 'invalid_token'));
      throw err;
    });
    if (!principal && deps.challenge) ctx.set('WWW-Authenticate', deps.challenge(ctx));
    authorize(principal, 'viewer');
    let parsedBody: unknown;
    if (ctx.method === 'POST') {
      const raw = await readRawBody(ctx, JSON_LIMIT);
      const text = raw.toString('utf8');
      checkJsonText(text);
      try {
        parsedBody = JSON.parse(text);
      } catch {
        // The body has been read, so the SDK cannot: answer JSON-RPC's parse error ourselves.
        ctx.status = 400;
        ctx.body = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } };
        return;
      }
    }
    const caller: McpCaller = { principal: principal!, call: { ip: ctx.ip ?? null } };
    const req = Object.assign(ctx.req, {
      auth: { token: 'resolved', clientId: principal!.id ?? principal!.actor, scopes: [principal!.role], extra: { caller } },
    });
    ctx.respond = false;
    await serve(req, ctx.res, parsedBody);
  });
  return router;
}
