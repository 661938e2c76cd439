// The engine as a service module: builds it with the catalogue's node types, puts it on the context, adds the system operations.
import type { ServiceModule } from './service-module.js';
import { createEngine } from '../engine/engine-module.js';
import { systemOperations } from '../application/operations/system-operations.js';
import { outboundCallTransport } from '../webhooks/outbound-call-transport.js';
import { integrationForVerifying, integrationSealKey } from '../channels/integrations/integration-store.js';

export const engineModule: ServiceModule = async (ctx) => {
  const sealKey = integrationSealKey(ctx.secretKey);
  // External steps (http.call, HTTP payment and carrier adapters) call out under the outbound rules, signed with an integration's secret.
  const callTransport = outboundCallTransport({
    allowLoopback: ctx.config.env.OUTBOUND_ALLOW_LOOPBACK,
    secretOf: async (id, now) => (await integrationForVerifying(ctx.db, sealKey, id, now))?.secrets[0] ?? null,
  });
  const { engine, hooks } = await createEngine(ctx, { callTransport, ...ctx.startOptions.engine });
  ctx.engine = engine;
  const clock = ctx.clock;
  ctx.operations.add(...systemOperations({ engine, testClock: ctx.testClock, clockNow: () => clock.now() }));
  return hooks;
};
