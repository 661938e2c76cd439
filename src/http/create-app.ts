// The Koa application: request context and error boundary, security headers, routes, JSON 404.
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Logger } from '../logging/logger.js';
import type { HttpRoute } from './route.js';
import type { Authenticator } from '../auth/authenticator.js';
import { requestContext } from './middleware/request-context.js';
import { securityHeaders } from '../transport/security-headers.js';
import { mountRoutes } from './mount-routes.js';
import { proxyOptions } from '../transport/proxy-options.js';

export interface AppOptions {
  logger: Logger;
  auth: Authenticator;
  routes: readonly HttpRoute[];
  /** Middleware that runs before routing (browser protections, pages, websockets...). */
  before?: Koa.Middleware[];
  /** Routers for non-REST surfaces (pages, A2A, MCP) mounted after the REST routes. */
  extraRouters?: Router[];
  /** TRUST_PROXY: how many trusted proxies stand in front (0 = none). */
  proxyHops: number;
}

export function createApp(options: AppOptions): Koa {
  const app = new Koa(proxyOptions(options.proxyHops));
  // Koa's own error printer is replaced by the request-context error boundary.
  app.silent = true;
  app.use(requestContext(options.logger));
  app.use(securityHeaders);
  for (const mw of options.before ?? []) app.use(mw);
  const router = new Router();
  mountRoutes(router, options.routes, options.auth);
  app.use(router.routes());
  for (const extra of options.extraRouters ?? []) app.use(extra.routes());
  return app;
}
