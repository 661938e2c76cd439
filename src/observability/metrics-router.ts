// GET /metrics on the service's port: the Prometheus text format, for an operator credential only.
import { Router } from '@koa/router';
import type { Authenticator } from '../auth/authenticator.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * `/metrics` behind the same authentication as the API (an operator API token or the workspace
 * password as a bearer): 401 without a credential, 403 below operator. Metrics name flows and
 * reveal load, so they are not public; a scraper on a private network can use METRICS_PORT instead.
 */
export function metricsRouter(metrics: ServiceMetrics, auth: Authenticator): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    await auth.require(ctx, 'operator');
    const text = await metrics.exposition();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.contentType;
    ctx.body = text;
  });
  return router;
}
