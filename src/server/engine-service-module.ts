// The engine as a service module: builds it with the catalogue's node types, puts it on the context, adds the system operations.
import type { ServiceModule } from './service-module.js';
import { createEngine } from '../engine/engine-module.js';
import { systemOperations } from '../application/operations/system-operations.js';

export const engineModule: ServiceModule = async (ctx) => {
  const { engine, hooks } = await createEngine(ctx, ctx.startOptions.engine);
  ctx.engine = engine;
  const clock = ctx.clock;
  ctx.operations.add(...systemOperations({ engine, testClock: ctx.testClock, clockNow: () => clock.now() }));
  return hooks;
};
