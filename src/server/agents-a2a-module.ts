// A2A module: the agents' tools as A2A skills at /a2a, the agent card, tasks and push (spec "A2A endpoint").
import type { ServiceModule } from './service-module.js';
import { a2aRouter } from '../a2a/a2a-endpoint.js';
import { agentCardJson, legacyAgentCardJson, agentCard, type CardInfo } from '../a2a/a2a-agent-card.js';
import { A2aPushStore } from '../a2a/a2a-push-store.js';
import { A2aPushWorker, PUSH_TIMEOUT_MS } from '../a2a/a2a-push-worker.js';
import { PUSH_TIMER_KIND } from '../a2a/a2a-push-queue.js';
import { A2aTaskStore } from '../a2a/a2a-task-store.js';
import { A2aExecutor } from '../a2a/a2a-executor.js';
import { A2aRequestHandler } from '../a2a/a2a-request-handler.js';
import { A2aOrderSync } from '../a2a/a2a-order-sync.js';
import { A2aConversations } from '../a2a/a2a-conversations.js';
import { OrderChangeFeed } from '../web/order-change-feed.js';
import { bearerChallenge } from '../oauth/oauth-resources.js';

export const agentsA2aModule: ServiceModule = (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the A2A module needs the engine module first');
  const { db, clock } = ctx;
  const env = ctx.config.env;
  const logger = ctx.logger.child({ component: 'a2a' });
  const timeoutMs = Math.min(PUSH_TIMEOUT_MS, env.OUTBOUND_TIMEOUT_MS);

  const configs = new A2aPushStore({ db, clock, secretKey: ctx.secretKey });
  const worker = new A2aPushWorker({
    db,
    clock,
    logger,
    configs,
    timeoutMs,
    allowLoopback: env.OUTBOUND_ALLOW_LOOPBACK,
    notify: (entries) => engine.scheduler.notify(entries),
    userAgent: `${env.SERVICE_NAME}-a2a-push/1`,
  });
  const store = new A2aTaskStore({ db, clock, logger, configs, afterQueued: (q) => worker.afterQueued(q), pushTimeoutMs: timeoutMs });
  // Every node sees every order change (bridged through Redis): a follower may run on any node.
  const feed = new OrderChangeFeed(engine.runtime.changes);
  const watch = (orderId: string, listener: () => void) => feed.subscribe(orderId, listener);
  const following = new Set<string>();
  const options = ctx.startOptions.a2a ?? {};
  const executor = new A2aExecutor({ operations: ctx.operations, db, clock, logger, watch, following, followMs: options.followMs, placeSlots: options.placeSlots, placeWaitMs: options.placeWaitMs, contextTasks: (owner, contextId) => store.contextTasks(owner, contextId) });
  const sync = new A2aOrderSync({ store, worker, changes: engine.runtime.changes, logger, following });

  engine.timerHandlers.set(PUSH_TIMER_KIND, (timerId) => worker.fireTimer(timerId));
  engine.outbox.addSink(sync.sink());
  ctx.testClock?.onAdvanced(async () => {
    await sync.idle();
    await sync.sweep();
    await worker.idle();
  });

  const info = (): CardInfo => ({
    name: env.SERVICE_NAME,
    description: 'Order orchestration: place, follow, approve and cancel commerce orders, and read orders, products and flows. Each skill is one typed tool; send a data part { "skill", "input" }.',
    version: '1.0.0',
    baseUrl: ctx.baseUrl(),
    tools: ctx.operations.list().filter((op) => op.audience === 'agents'),
  });
  // Built on first use: the card names the public address, known once the server listens.
  let handler: A2aRequestHandler | null = null;
  const getHandler = () => (handler ??= new A2aRequestHandler({ card: agentCard(info()), store, configs, executor, operations: ctx.operations, clock, watch, logger }));
  // The assistant page talks through the same handler and store: a person's conversations are theirs on both faces.
  ctx.conversations = new A2aConversations({ handler: getHandler, store });
  const router = a2aRouter({
    auth: ctx.auth,
    logger,
    challenge: (_c, error) => bearerChallenge(ctx.baseUrl(), 'a2a', error),
    handler: getHandler,
    card: (version) => (version === '1.0' ? agentCardJson(info()) : legacyAgentCardJson(info())),
  });

  return {
    routers: [router],
    start: async () => {
      feed.start();
      sync.start();
    },
    stop: async () => {
      await sync.stop();
      feed.stop();
      await worker.stop();
    },
  };
};
