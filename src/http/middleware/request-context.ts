// Request id, the error boundary and one structured log line per request (debug; 5xx at error).
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../logging/logger.js';
import { toErrorResponse } from '../http-errors.js';

const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;

export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    const log = logger.child({ requestId });
    ctx.state.log = log;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'Not found' };
      }
    } catch (err) {
      const res = toErrorResponse(err);
      if (res.internal) log.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = res.status;
      ctx.body = res.body;
      if (res.headers) for (const [k, v] of Object.entries(res.headers)) ctx.set(k, v);
    } finally {
      // The path only: query strings and headers may carry secrets. Requests are debug lines (LOG_LEVEL=debug shows
      // them; metrics count them); an answer the service failed to give (5xx) is an error line at any level.
      const line = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) };
      if (ctx.status >= 500) log.error(line, 'request');
      else log.debug(line, 'request');
    }
  };
}
