// The engine as a service module: builds it with the built-in node types (src/nodes), the commerce ports and the orders subject, puts it on the context, adds the system operations.
import type { ServiceModule } from './service-module.js';
import { createEngine } from '../engine/engine-module.js';
import type { StepStore } from '../engine/step-store.js';
import { builtinNodeTypes } from '../nodes/builtin-node-types.js';
import { commerceStepPorts } from '../commerce/step-ports/commerce-step-ports.js';
import { ordersSubject } from '../orders/order-subject.js';
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
  // The composition root hands the engine its node types: the built-in ones, then any a test adds.
  const { nodeTypes: extraNodeTypes = [], ports: extraPorts, ...engineOptions } = ctx.startOptions.engine ?? {};
  // Steps' ports: the commerce plug-in's over each slice's store, then any a test adds for its own node types.
  const ports = extraPorts ? (store: StepStore) => ({ ...commerceStepPorts(store), ...extraPorts(store) }) : commerceStepPorts;
  // The order's business side (its facts, the summary events carry, a return's events filed under its order): the orders feature's.
  const { engine, hooks } = await createEngine(ctx, { callTransport, ...engineOptions, ports, subject: ordersSubject, nodeTypes: [...builtinNodeTypes, ...extraNodeTypes] });
  ctx.engine = engine;
  const clock = ctx.clock;
  ctx.operations.add(...systemOperations({ engine, testClock: ctx.testClock, clockNow: () => clock.now() }));
  return hooks;
};
