// Mounts RouteDefs on a Koa router: role check, then zod validation of params/query/body, then the handler.
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { RouteDef } from './route.js';
import type { Authenticator } from '../auth/authenticator.js';
import { ValidationError } from '../domain/errors.js';
import { zodIssues } from './http-errors.js';
import { checkJsonText, readJsonBody, readRawBody } from './read-body.js';
import { UNSTORABLE_TEXT } from './json-text-limits.js';

function parseWith<T>(schema: z.ZodType<T> | undefined, value: unknown, what: string): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(zodIssues(result.error), `Invalid ${what}`);
  return result.data;
}

/** Query strings arrive as strings (or arrays for repeats); routes declare coercions in their schemas. */
function queryObject(ctx: Context): Record<string, unknown> {
  return { ...ctx.query };
}

/** A path or query value with text PostgreSQL cannot store is a 400 before any handler runs. */
function checkStorable(values: Record<string, unknown>, what: string): void {
  for (const [key, value] of Object.entries(values))
    for (const v of Array.isArray(value) ? value : [value])
      if (typeof v === 'string' && UNSTORABLE_TEXT.test(v))
        throw new ValidationError([{ path: key, message: 'contains a NUL character or an unpaired surrogate' }], `Invalid ${what}`);
}

/** The route takes JSON and the request says JSON (or says nothing). */
function isJsonRequest(ctx: Context, accepted: string[]): boolean {
  const type = ctx.get('content-type');
  return accepted.some((t) => /json/i.test(t)) && (!type || /json/i.test(type));
}

export function mountRoutes(router: Router, routes: readonly RouteDef[], auth: Authenticator): void {
  for (const route of routes) {
    router[route.method](route.path, async (ctx: Context) => {
      const principal =
        route.access === 'public' || route.access === 'self'
          ? null
          : await auth.require(ctx, route.access, route.allowRestricted);
      checkStorable(ctx.params ?? {}, 'path parameters');
      checkStorable(queryObject(ctx), 'query');
      const params = parseWith(route.params, ctx.params ?? {}, 'path parameters');
      const query = parseWith(route.query, queryObject(ctx), 'query');
      let body: unknown;
      if (route.rawBody) {
        body = await readRawBody(ctx, route.bodyLimit);
        // A JSON body read raw (signed routes parse it after the signature check) gets the same structural limits.
        if (isJsonRequest(ctx, route.rawBody.contentTypes)) checkJsonText((body as Buffer).toString('utf8'));
      }
      else if (route.body) body = parseWith(route.body, (await readJsonBody(ctx, route.bodyLimit)) ?? {}, 'body');
      const res = await route.handler({ body, query, params, principal, ctx });
      if (res.headers) for (const [k, v] of Object.entries(res.headers)) ctx.set(k, v);
      ctx.status = res.status ?? 200;
      if (res.body !== undefined) ctx.body = res.body;
    });
  }
}
