// Mounts HTTP routes on a Koa router. Raw routes: role check, zod validation of params/query/body, handler.
// Bound routes: authentication only; the operation registry checks the role and the binding reads the input.
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { isBoundRoute, type HttpRoute, type RouteDef, type RouteResponse } from './route.js';
import type { Authenticator } from '../auth/authenticator.js';
import { ValidationError } from '../domain/errors.js';
import { zodIssues } from '../lib/zod-issues.js';
import { checkJsonText, readJsonBody, readRawBody } from '../transport/read-body.js';
import { checkStorable, queryObject } from './request-input.js';

function parseWith<T>(schema: z.ZodType<T> | undefined, value: unknown, what: string): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(zodIssues(result.error), `Invalid ${what}`);
  return result.data;
}

/** The route takes JSON and the request says JSON (or says nothing). */
function isJsonRequest(ctx: Context, accepted: string[]): boolean {
  const type = ctx.get('content-type');
  return accepted.some((t) => /json/i.test(t)) && (!type || /json/i.test(type));
}

/** The router's path parameters (koa-router types them as any). */
function pathParams(ctx: Context): Record<string, unknown> {
  const params: unknown = ctx.params;
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
}

async function handleRaw(route: RouteDef, ctx: Context, auth: Authenticator): Promise<RouteResponse> {
  const principal =
    route.access === 'public' || route.access === 'self' ? null : await auth.require(ctx, route.access, route.allowRestricted);
  checkStorable(pathParams(ctx), 'path parameters');
  checkStorable(queryObject(ctx), 'query');
  const params = parseWith(route.params, pathParams(ctx), 'path parameters');
  const query = parseWith(route.query, queryObject(ctx), 'query');
  let body: unknown;
  if (route.rawBody) {
    body = await readRawBody(ctx, route.bodyLimit);
    // A JSON body read raw (signed routes parse it after the signature check) gets the same structural limits.
    if (isJsonRequest(ctx, route.rawBody.contentTypes)) checkJsonText((body as Buffer).toString('utf8'));
  } else if (route.body) body = parseWith(route.body, (await readJsonBody(ctx, route.bodyLimit)) ?? {}, 'body');
  return route.handler({ body, query, params, principal, ctx });
}

export function mountRoutes(router: Router, routes: readonly HttpRoute[], auth: Authenticator): void {
  for (const route of routes) {
    router[route.method](route.path, async (ctx: Context) => {
      const res = isBoundRoute(route) ? await route.invoke(await auth.authenticate(ctx), ctx) : await handleRaw(route, ctx, auth);
      if (res.headers) for (const [k, v] of Object.entries(res.headers)) ctx.set(k, v);
      ctx.status = res.status ?? 200;
      if (res.body !== undefined) ctx.body = res.body;
    });
  }
}
