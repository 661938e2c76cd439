// A feature module plugs routes, credentials, checks and background work into the service.
import type Koa from 'koa';
import type { Router } from '@koa/router';
import type { ServiceContext } from './service-context.js';
import type { UpgradeRoute } from '../transport/upgrade-dispatcher.js';

export interface ModuleHooks {
  /** Middleware before routing (browser protections, websockets). */
  before?: Koa.Middleware[];
  /** Routers for non-REST surfaces (HTML pages, A2A, MCP). */
  routers?: Router[];
  /** Started after the HTTP server listens; stopped (in reverse) before the database closes. */
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
  /** Websocket surfaces; the service's one upgrade dispatcher routes to them and answers every other upgrade 404. */
  upgrades?: UpgradeRoute[];
}

/** Receives the shared context; adds operations to `ctx.operations`, raw routes to `ctx.routes`, resolvers to `ctx.auth`, checks to `ctx.health`. */
export type ServiceModule = (ctx: ServiceContext) => Promise<ModuleHooks> | ModuleHooks;
