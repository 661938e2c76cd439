// HTTP routes described once: method, path, role, schemas (validation + OpenAPI); raw routes or bound operations.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';

/** Who may call: a role (checked server-side), `public`, or a route that authenticates itself (signatures). */
export type RouteAccess = Role | 'public' | 'self';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** Present for role routes; null for public and self-authenticated routes. */
  principal: Principal | null;
  ctx: Context;
}

export interface RouteResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What every route says about itself: the router, the OpenAPI document and the role matrix read it. */
export interface RouteShape {
  method: HttpMethod;
  /** Koa-router path, e.g. `/api/v1/orders/:id`. */
  path: string;
  summary: string;
  /** Longer text for client developers (OpenAPI `description`). */
  description?: string;
  tag: string;
  access: RouteAccess;
  /** The OpenAPI operationId: camelCase, unique; bound routes use their operation's name. */
  operationId: string;
  /** JSON body schema (bound routes: the operation's input, whose path and header fields come from elsewhere). */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Response schemas by status, for the OpenAPI document. */
  responses: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
  /** Body cap in bytes (default 1 MiB). */
  bodyLimit?: number;
  /**
   * Bodies the handler reads raw (EDI; signed JSON, verified over the bytes before parsing).
   * `schema` only documents a JSON body in OpenAPI; the handler validates it after authenticating.
   */
  rawBody?: { contentTypes: string[]; schema?: z.ZodType };
  /** Extra request headers to document (Idempotency-Key, signatures). */
  headers?: { name: string; required: boolean; description: string }[];
  /** Temporary-password / two-factor-restricted principals may still call it (Account-page actions). */
  allowRestricted?: boolean;
}

/** A route that is its own handler: transport-level surfaces (health, openapi.json) and channel adapters. */
export interface RouteDef<B = unknown, Q = unknown, P = unknown> extends RouteShape {
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  handler(req: RouteRequest<B, Q, P>): Promise<RouteResponse> | RouteResponse;
}

/**
 * A route bound to a registry operation (src/http/rest/): the route only authenticates; the
 * registry checks the role, then `invoke` reads the input from path, query, body and headers.
 */
export interface BoundRoute extends RouteShape {
  operationId: string;
  /** The operation's whole input; `parts` says which request part fills each field. */
  input: z.ZodType;
  /** The input fields each part of the request fills, for the OpenAPI document. */
  parts: { path: string[]; query: string[]; body: string[]; headers: { name: string; field: string; description: string }[] };
  /** An example of the JSON body (the operation's example without its path and header fields). */
  example?: unknown;
  invoke(principal: Principal | null, ctx: Context): Promise<RouteResponse>;
}

export type HttpRoute = RouteDef | BoundRoute;

export function isBoundRoute(route: HttpRoute): route is BoundRoute {
  return 'invoke' in route;
}

/** Identity function that keeps the generic types of a route definition. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(def: RouteDef<B, Q, P>): RouteDef<B, Q, P> {
  return def;
}
