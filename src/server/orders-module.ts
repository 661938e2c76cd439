// Orders module: the orders, flows and webhook-subscription operations, outbound webhook delivery,
// order documents and the live order connection.
import type { ServiceModule } from './service-module.js';
import { ownOriginsOf } from './own-origins.js';
import { cursorKey } from '../orders/list-cursor.js';
import { detectSearchMode } from '../orders/order-search.js';
import { orderOperations } from '../application/operations/order-operations.js';
import { flowOperations } from '../application/operations/flow-operations.js';
import { approvalOperations } from '../application/operations/approval-operations.js';
import { FlowDiagrams } from '../engine/flows/flow-diagrams.js';
import { webhookOperations } from '../application/operations/webhook-operations.js';
import { agentTools } from '../application/operations/agent-tools.js';
import { assessOrderOperation } from '../application/operations/assess-order.js';
import { orderOverviewOperations } from '../application/operations/order-overview-operations.js';
import { proposeFlowChangeOperation } from '../application/operations/propose-flow-change.js';
import { flowTrialOperations } from '../application/operations/flow-trial-operations.js';
import { FlowSimulations } from '../orders/flow-trial/flow-simulations.js';
import { IDEMPOTENCY_PURGE_INTERVAL_MS, purgeExpiredIdempotencyKeys } from '../orders/idempotency-retention.js';
import { purgeEndedOrderCalls } from '../engine/runtime/order-call-retention.js';
import { webhookSealKey } from '../webhooks/subscription-store.js';
import { DeliveryWorker } from '../webhooks/delivery-worker.js';
import { DELIVERY_TIMER_KIND } from '../webhooks/delivery-schedule.js';
import { webhookSink } from '../webhooks/webhook-sink.js';
import { settleDeliveries } from '../webhooks/test-clock-settle.js';
import { OrderChangeFeed } from '../web/order-change-feed.js';
import { OrderLiveSocket } from '../web/order-live-socket.js';
import { orderDocumentsRouter } from '../web/order-documents-router.js';
import { proxyOptions } from '../transport/proxy-options.js';
import { flowStatsOperations } from '../application/operations/flow-stats-operations.js';
import { FlowStatsWorker } from '../orders/flow-stats-worker.js';
import { ReturnLinks } from '../orders/return-links.js';

/** How often each node sweeps for return links a crash left unsettled (docs/commerce.md "Returns"). */
const RETURN_SWEEP_INTERVAL_MS = 60_000;

export const ordersModule: ServiceModule = async (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the orders module needs the engine module first');
  const { db, clock, logger } = ctx;
  const env = ctx.config.env;

  const searchMode = await detectSearchMode(db);
  if (searchMode === 'prefix') logger.warn('pg_trgm is not installed: order search matches field prefixes only');
  const sealKey = webhookSealKey(ctx.secretKey);
  // One cache of drawings per service, shared by the flow operations and the dashboard pages.
  // Layouts run on a layout thread within a budget (contract 13 "Drawing cost"); a list drawing is logged.
  ctx.flowDiagrams = new FlowDiagrams(engine.catalogue, {
    clock,
    onList: (reason, size, detail) => logger.warn({ component: 'flow-diagrams', reason, ...size, ...(detail ? { detail } : {}) }, 'flow drawn as a list'),
  });
  const orderDeps = { db, clock, engine, cursorKey: cursorKey(ctx.secretKey), searchMode: () => searchMode };
  // The agents' tools adapt these very objects (src/application/agent-tool.ts).
  const orders = orderOperations(orderDeps);
  const overview = orderOverviewOperations(orderDeps);
  const assessOrder = assessOrderOperation({ db, clock, allowLoopback: env.OUTBOUND_ALLOW_LOOPBACK, timeoutMs: env.OUTBOUND_TIMEOUT_MS });
  const flows = flowOperations({ db, clock, engine, diagrams: ctx.flowDiagrams });
  const proposeFlowChange = proposeFlowChangeOperation({ db, clock, engine });
  const flowStats = flowStatsOperations({ db, clock, engine });
  // Trying a flow (contract 14): simulations run in memory against a snapshot of the workspace's data.
  const flowTrial = flowTrialOperations({ db, engine, simulations: new FlowSimulations({ db, clock, engine }) });
  ctx.operations.add(
    ...Object.values(orders),
    ...Object.values(overview),
    ...agentTools(
      {
        ...orderDeps,
        chat: {
          registry: () => ctx.operations,
          baseUrl: ctx.baseUrl,
          model: env.ASSISTANT_PROVIDER_URL && env.ASSISTANT_MODEL
            ? { url: env.ASSISTANT_PROVIDER_URL, model: env.ASSISTANT_MODEL, apiKey: env.ASSISTANT_API_KEY, timeoutMs: env.OUTBOUND_TIMEOUT_MS * 3 }
            : null,
          warn: (message) => logger.warn(message),
        },
      },
      { orders, overview, assessOrder, flows, proposeFlowChange, flowStats, flowTrial },
    ),
    assessOrder,
    ...Object.values(flows),
    proposeFlowChange,
    ...Object.values(flowStats),
    ...Object.values(flowTrial),
    ...webhookOperations({ db, clock, sealKey }),
    ...approvalOperations({ db }),
  );

  const worker = new DeliveryWorker({
    db,
    clock,
    logger: logger.child({ component: 'webhooks' }),
    sealKey,
    timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    allowLoopback: env.OUTBOUND_ALLOW_LOOPBACK,
    notify: (entries) => engine.scheduler.notify(entries),
    userAgent: `${env.SERVICE_NAME}-webhooks/1`,
    probe: engine.probe,
  });
  engine.timerHandlers.set(DELIVERY_TIMER_KIND, (timerId) => worker.fireTimer(timerId));
  engine.outbox.addSink(webhookSink({ clock, worker, timeoutMs: env.OUTBOUND_TIMEOUT_MS }));
  ctx.testClock?.onAdvanced(settleDeliveries(db, engine.outbox, worker));

  // Idempotency-Key headers expire after 7 days, and the call attempts of orders ended 30 days ago go: hourly on every
  // node, and after each move of the test clock.
  const purgeKeys = () =>
    Promise.all([
      purgeExpiredIdempotencyKeys(db, clock.now()).catch((err) => logger.warn({ err: (err as Error).message }, 'idempotency key purge failed')),
      purgeEndedOrderCalls(db, clock.now()).catch((err) => logger.warn({ err: (err as Error).message }, 'order call purge failed')),
    ]).then(() => undefined);
  ctx.testClock?.onAdvanced(purgeKeys);
  let purgeTimer: NodeJS.Timeout | null = null;

  // Flow stats (contract 17, docs/flow-stats.md): aggregated off the orders' transactions by a background worker,
  // woken after commits (any node's, through the change feed), polled every 2 s; on one node at a time.
  const statsWorker = new FlowStatsWorker({
    db,
    clock,
    flows: engine.registry,
    onCounted: (counted) => ctx.observeStepDurations?.(counted),
    onError: (err) => logger.warn({ component: 'flow-stats', err: (err as Error).message }, 'flow stats pass failed'),
  });
  const wakeStats = () => statsWorker.wake();
  ctx.testClock?.onAdvanced(() => statsWorker.catchUp());
  ctx.flowStatsWorker = statsWorker;
  // Returns and their orders kept in step (a return's end wakes its order; an order ended unsold cancels its returns).
  const returnLinks = new ReturnLinks({ db, engine, logger: logger.child({ component: 'returns' }) });
  const sweepReturns = () => returnLinks.sweep().then(() => undefined, (err) => logger.warn({ err: (err as Error).message }, 'return link sweep failed'));
  ctx.testClock?.onAdvanced(sweepReturns);
  let returnSweep: NodeJS.Timeout | null = null;

  const feed = new OrderChangeFeed(engine.runtime.changes);
  const ownOrigins = ownOriginsOf(ctx);
  const live = new OrderLiveSocket({ auth: ctx.auth, operations: ctx.operations, engine, db, feed, logger, koaOptions: proxyOptions(env.TRUST_PROXY), ownOrigins, sockets: ctx.websockets });

  return {
    routers: [orderDocumentsRouter({ auth: ctx.auth, db })],
    upgrades: [live.route()],
    start: async () => {
      feed.start();
      engine.runtime.changes.on('change', wakeStats);
      statsWorker.start();
      returnLinks.start();
      await sweepReturns();
      returnSweep = setInterval(() => void sweepReturns(), RETURN_SWEEP_INTERVAL_MS);
      returnSweep.unref();
      await purgeKeys();
      purgeTimer = setInterval(() => void purgeKeys(), IDEMPOTENCY_PURGE_INTERVAL_MS);
      purgeTimer.unref();
    },
    stop: async () => {
      if (purgeTimer) clearInterval(purgeTimer);
      engine.runtime.changes.off('change', wakeStats);
      await statsWorker.stop();
      if (returnSweep) clearInterval(returnSweep);
      returnLinks.stop();
      await live.close();
      feed.stop();
      await worker.stop();
      await ctx.flowDiagrams?.close();
    },
  };
};
