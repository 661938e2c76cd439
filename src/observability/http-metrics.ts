// Koa middleware timing every request into the HTTP latency histogram (and naming its trace span) by route template.
import type { Middleware } from 'koa';
import type { ServiceMetrics } from './service-metrics.js';
import { nameActiveSpan } from '../telemetry/spans.js';

/**
 * Observes each request once its response is finished (so the status is the one sent, after the
 * error boundary). The route label is the matched route template (`/api/v1/orders/:id`), or
 * `unmatched`, which keeps the label set bounded whatever paths clients send.
 */
export function httpMetrics(metrics: ServiceMetrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const route = () => {
      const matched = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
      return typeof matched === 'string' ? matched : 'unmatched';
    };
    ctx.res.once('finish', () => metrics.observeRequest(ctx.method, route(), ctx.status, (performance.now() - started) / 1000));
    try {
      await next();
    } finally {
      // Before the response is written (the server span ends with it): the trace shows the route, not just the method.
      nameActiveSpan(ctx.method, route());
    }
  };
}
