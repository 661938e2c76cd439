// Request id, the error boundary and one structured log line per request (debug; a deliberate 5xx at warn; a bug at error).
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../logging/logger.js';
import { toErrorResponse } from '../../transport/http-errors.js';

const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;

export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    const log = logger.child({ requestId });
    /** True when the answer is a bug's 500 (logged with its stack above). */
    let failed = false;
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
      failed = res.internal;
      ctx.status = res.status;
      ctx.body = res.body;
      if (res.headers) for (const [k, v] of Object.entries(res.headers)) ctx.set(k, v);
    } finally {
      // The path only: query strings and headers may carry secrets. Requests are debug lines (LOG_LEVEL=debug shows
      // them; metrics count them); a request that failed inside the service is an error line at any level.
      // A deliberate 503 (an adapter switched off, the database restarting) is a warning, not an error (review L8).
      const line = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) };
      if (failed) log.error(line, 'request');
      else if (ctx.status >= 500) log.warn(line, 'request');
      else log.debug(line, 'request');
    }
  };
}
