// Metrics, request timing and order lifecycle logs as a service module: listens to the engine, adds GET /metrics.
import type { ServiceModule } from './service-module.js';
import { ServiceMetrics } from '../observability/service-metrics.js';
import { httpMetrics } from '../observability/http-metrics.js';
import { metricsRouter } from '../observability/metrics-router.js';
import { startMetricsServer, type MetricsServer } from '../observability/metrics-server.js';
import { logOrderLifecycle } from '../observability/order-lifecycle-log.js';

/**
 * Registered right after the engine (it reads `ctx.engine`), so its request timing runs before any
 * other module's middleware and sees every request. Listeners are synchronous counter increments
 * and one log call: nothing here queries the database on a command's or a request's path (the
 * backlog gauges are read once per scrape).
 */
export const observabilityModule: ServiceModule = (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the observability module needs the engine module before it');
  const metrics = new ServiceMetrics({ pool: ctx.db.pool, liveOrders: () => engine.runtime.liveOrders, db: ctx.db, now: () => ctx.clock.now() });
  const lifecycle = ctx.logger.child({ component: 'orders' });
  engine.probe.on('slice', (s) => {
    metrics.observeSlice(s);
    logOrderLifecycle(lifecycle, s);
  });
  engine.probe.on('timer', (t) => metrics.observeTimer(t));
  engine.probe.on('delivery', (d) => metrics.observeDelivery(d));
  // The orders module's flow stats worker reports the runs it counted (step durations by flow and node type).
  ctx.observeStepDurations = (counted) => metrics.observeStepDurations(counted);

  const { METRICS_PORT, METRICS_HOST, HOST } = ctx.config.env;
  let server: MetricsServer | null = null;
  return {
    before: [httpMetrics(metrics)],
    routers: [metricsRouter(metrics, ctx.auth)],
    start: async () => {
      if (METRICS_PORT === undefined) return;
      server = await startMetricsServer(metrics, METRICS_HOST ?? HOST, METRICS_PORT);
      ctx.logger.info({ url: `${server.url}/metrics` }, 'metrics listening');
    },
    stop: async () => {
      await server?.close();
    },
  };
};
