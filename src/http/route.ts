// A REST route described once: method, path, role, zod schemas (validation + OpenAPI), handler.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';

/** Who may call: a role (checked server-side), `public`, or a route that authenticates itself (signatures). */
export type RouteAccess = Role | 'public' | 'self';

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

export interface RouteDef<B = any, Q = any, P = any> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Koa-router path, e.g. `/api/v1/orders/:id`. */
  path: string;
  summary: string;
  tag: string;
  access: RouteAccess;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Response schemas by status, for the OpenAPI document. */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
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
  handler(req: RouteRequest<B, Q, P>): Promise<RouteResponse> | RouteResponse;
}

/** Identity function that keeps the generic types of a route definition. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(def: RouteDef<B, Q, P>): RouteDef<B, Q, P> {
  return def;
}
