// The engine as a service module: builds it with the catalogue's node types and puts it on the context.
import type { ServiceModule } from './service-module.js';
import { createEngine } from '../engine/engine-module.js';
import { runtimeStatsRoutes } from '../http/routes/runtime-stats-routes.js';
import { nodeTypeRoutes } from '../http/routes/node-type-routes.js';

export const engineModule: ServiceModule = async (ctx) => {
  const { engine, hooks } = await createEngine(ctx, ctx.startOptions.engine);
  ctx.engine = engine;
  ctx.routes.push(...runtimeStatsRoutes(engine), ...nodeTypeRoutes(engine.catalogue));
  return hooks;
};
