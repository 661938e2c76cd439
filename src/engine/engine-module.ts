// Wires the flow engine into the service: flows, compiled-machine cache, runtime, scheduler, test clock.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '../db/db.js';
import type { Logger } from '../logging/logger.js';
import type { Clock } from '../platform/clock.js';
import type { TestClockController } from './test-clock-controller.js';
import { initSetting } from '../db/settings-store.js';
import { createCatalogue, type Catalogue } from './catalogue.js';
import type { NodeTypeDef } from './node-type.js';
import type { StepPortsFactory } from './step-store.js';
import type { OrderSubject } from './order-subject.js';
import { FlowStore } from './flows/flow-store.js';
import { FlowRegistry } from './flows/flow-registry.js';
import { publishBuiltinFlows } from './flows/builtin-flows.js';
import { OrderRuntime } from './runtime/order-runtime.js';
import { Scheduler } from './scheduler/scheduler.js';
import { MemoryTimerIndex } from './scheduler/memory-timer-index.js';
import { RedisTimerIndex } from './scheduler/redis-timer-index.js';
import type { TimerIndex, TimerRoute } from './scheduler/timer-index.js';
import { earliestDue } from './scheduler/timer-store.js';
import { OutboxDispatcher } from './outbox/outbox-dispatcher.js';
import { HandlerLane } from './scheduler/handler-lane.js';
import { bridgeChangesToRedis } from './runtime/change-feed.js';
import { EngineProbe } from './engine-probe.js';
import { CallExecutor } from './runtime/call-executor.js';
import { noCallTransport, type CallTransport } from './runtime/call-transport.js';
import { CALL_TIMER_KIND } from './runtime/order-calls.js';

/** Handler-kind timers (webhook attempts) running at once beside the scheduler's own fire slots. */
const HANDLER_LANE_LIMIT = 256;
/** How long a stop waits for those runs before leaving them to their guard timers. */
const HANDLER_LANE_GRACE_MS = 1_500;

/** The engine's parts, shared by every edge (REST, channels, agents, live views). */
export interface Engine {
  catalogue: Catalogue;
  flows: FlowStore;
  registry: FlowRegistry;
  runtime: OrderRuntime;
  scheduler: Scheduler;
  /** Timer handlers for kinds that do not belong to an order run (webhook retries, jobs). */
  timerHandlers: Map<string, (timerId: string) => Promise<void>>;
  /** Fans committed order events out to sinks (webhooks, A2A push). */
  outbox: OutboxDispatcher;
  /** What the engine reports as it works (committed slices, fired timers): metrics and lifecycle logs listen. */
  probe: EngineProbe;
}

export interface EngineOptions {
  /** Every node type of the catalogue, handed in: the engine imports no plug-in (the service passes src/nodes' built-in ones). */
  nodeTypes: readonly NodeTypeDef[];
  /** Builds the ports steps receive (`ctx.ports`) over each slice's store: the host hands in its plug-ins' ports. */
  ports: StepPortsFactory;
  /** The order's business side (its facts in the orders row, the summary events carry, where they are filed): the host's, as its ports are. */
  subject: OrderSubject;
  /** Publish machines/*.json at start (default true). */
  builtinFlows?: boolean;
  /** How external steps reach the world (the service passes outbound HTTP); without one every call fails. */
  callTransport?: CallTransport;
}

/**
 * What the engine needs of the process that hosts it: declared here, so the engine depends on no
 * composition root (the service's context satisfies it structurally).
 */
export interface EngineHost {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: { env: { REDIS_URL?: string } };
  /** Redis for cross-node change notices, when configured. */
  redis: Redis | null;
  health: { register(name: string, check: () => Promise<boolean>): void };
  testClock: Pick<TestClockController, 'addSource' | 'onAdvanced'> | null;
}

/** Started after the HTTP server listens; stopped before the database closes. */
export interface EngineLifecycle {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function createEngine(ctx: EngineHost, options: EngineOptions): Promise<{ engine: Engine; hooks: EngineLifecycle }> {
  const catalogue = createCatalogue(options.nodeTypes);
  const flows = new FlowStore(catalogue);
  const registry = new FlowRegistry(flows, catalogue);
  const timerHandlers = new Map<string, (timerId: string) => Promise<void>>();

  let index: TimerIndex;
  // One key prefix per database, shared by every node on it, so services on other databases never collide.
  const prefix = await initSetting(ctx.db, 'redis_key_prefix', `oo:${randomBytes(6).toString('hex')}:`, ctx.clock.now());
  if (ctx.config.env.REDIS_URL) {
    index = await RedisTimerIndex.open({
      url: ctx.config.env.REDIS_URL,
      keyPrefix: prefix,
      onError: (err) => ctx.logger.warn({ err: err.message }, 'redis timer index error'),
    });
  } else index = new MemoryTimerIndex();

  let scheduler: Scheduler;
  const probe = new EngineProbe();
  const outbox = new OutboxDispatcher({ db: ctx.db, clock: ctx.clock, onError: (err) => ctx.logger.error({ err }, 'outbox dispatch failed') });
  const runtime = new OrderRuntime({
    db: ctx.db,
    clock: ctx.clock,
    flows: registry,
    ports: options.ports,
    subject: options.subject,
    onTimers: (timers) => void scheduler.notify(timers.map((t) => ({ id: t.id, dueAt: t.dueAt, kind: t.kind, orderId: t.orderId ?? null }))).catch(() => undefined),
    onOutbox: () => outbox.wake(),
    probe,
  });

  // External steps' calls: made outside any transaction when their timer fires, answered as a command.
  const calls = new CallExecutor({
    db: ctx.db,
    clock: ctx.clock,
    transport: options.callTransport ?? noCallTransport,
    answer: (orderId, callId, answer) => runtime.answerCall(orderId, callId, answer),
    holder: randomUUID(),
  });
  timerHandlers.set(CALL_TIMER_KIND, calls.fire);

  // Handler-kind timers (webhook attempts) run beside the scheduler's slots: a hanging receiver must not delay
  // order timers (issue "Resilience", slow receivers). The test clock still awaits each one, in due order.
  const lane = new HandlerLane(HANDLER_LANE_LIMIT, (err, timerId) => ctx.logger.error({ err, timerId }, 'timer fire failed'));
  const routing = new Map<string, Promise<void>>();
  /**
   * Order timers this process has fired (or found fired or cancelled) for good. The test clock's advance and the
   * scheduler's loop can each find a timer due one just after the other has finished with it (each from its own
   * copy of the index): the later route is dropped here instead of re-opening the order for a claim that would find
   * the timer fired. Bounded, oldest first out; a route that threw is not in it, so the timer's retry rules still hold.
   */
  const firedHere = new Set<string>();
  const FIRED_HERE_MAX = 10_000;
  /**
   * One routing of a timer at a time in this process: a second caller (the test clock's advance and
   * the scheduler's own loop both finding it due, or the PostgreSQL fallback beside the index) waits
   * for the first instead of opening a transaction whose claim would find it fired. When the first
   * fails, the timer is still pending in PostgreSQL and its own retry rules (the sweep, the next
   * advance) bring it back.
   */
  const route = (timerId: string, beside: boolean, known?: TimerRoute): Promise<void> => {
    const running = routing.get(timerId);
    if (running) return running.catch(() => undefined);
    if (firedHere.has(timerId)) {
      probe.emit('timer', { kind: known?.kind ?? 'unknown', lateMs: 0, outcome: 'gone' });
      return Promise.resolve();
    }
    const run = routeOnce(timerId, beside, known).finally(() => routing.delete(timerId));
    routing.set(timerId, run);
    return run;
  };
  /**
   * Routes a due timer to its handler by kind; order timers go to the runtime. The kind and order
   * come with the timer when this process indexed it; otherwise (another node indexed it, the
   * PostgreSQL fallback, the test clock) the row is read, and a timer already fired or cancelled
   * is dropped here, before any lock. Either way the claim inside the handler or the order's
   * command decides a race, so a routed timer that was cancelled meanwhile changes nothing.
   */
  const routeOnce = async (timerId: string, beside: boolean, known?: TimerRoute): Promise<void> => {
    let hint = known;
    if (!hint) {
      const { rows } = await ctx.db.query<{ kind: string; order_id: string | null; due_at: string }>(
        'SELECT kind, order_id, due_at FROM timers WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL',
        [timerId],
      );
      if (!rows.length) {
        probe.emit('timer', { kind: 'unknown', lateMs: 0, outcome: 'gone' });
        return;
      }
      hint = { kind: rows[0].kind, orderId: rows[0].order_id, dueAt: Number(rows[0].due_at) };
    }
    const { kind, orderId } = hint;
    probe.emit('timer', { kind, lateMs: Math.max(0, ctx.clock.now() - hint.dueAt), outcome: 'fired' });
    const handler = timerHandlers.get(kind);
    if (!handler) {
      if (orderId) await runtime.fireTimer(timerId, orderId);
      // An order timer is now fired (or was found fired or cancelled) for good. Fired by the test clock, its
      // index entry is still there: left, the scheduler's loop would later re-open the order for a no-op claim.
      if (!beside) await scheduler.forget([timerId]);
      firedHere.add(timerId);
      if (firedHere.size > FIRED_HERE_MAX) firedHere.delete(firedHere.values().next().value!);
    } else if (beside) await lane.submit(timerId, () => handler(timerId));
    else await handler(timerId);
  };
  scheduler = new Scheduler({ db: ctx.db, index, clock: ctx.clock, fire: (timerId, known) => route(timerId, true, known), logger: ctx.logger });

  ctx.health.register('scheduler', () => scheduler.healthy());
  ctx.testClock?.addSource({
    name: 'timers',
    nextDue: async (until, exclude) => {
      const timer = await earliestDue(ctx.db, until, exclude);
      return timer ? { key: timer.id, at: timer.dueAt, run: () => route(timer.id, false, { kind: timer.kind, orderId: timer.orderId, dueAt: timer.dueAt }) } : null;
    },
  });
  // After the test clock moved: re-index what entered the horizon, and hand out events before the call returns.
  ctx.testClock?.onAdvanced(async () => {
    await scheduler.sweep();
    await outbox.drain();
  });

  if (options.builtinFlows !== false) {
    const published = await publishBuiltinFlows(ctx.db, flows, ctx.clock.now());
    if (published.length) ctx.logger.info({ flows: published }, 'built-in flows published');
  }

  let unbridge: (() => Promise<void>) | null = null;
  let recovery: NodeJS.Timeout | null = null;
  const engine: Engine = { catalogue, flows, registry, runtime, scheduler, timerHandlers, outbox, probe };
  return {
    engine,
    hooks: {
      start: async () => {
        if (ctx.redis) unbridge = await bridgeChangesToRedis(runtime.changes, ctx.redis, prefix);
        await scheduler.start();
        outbox.start();
        await runtime.recoverUnstarted().catch((err) => ctx.logger.error({ err }, 'recovering unstarted orders failed'));
        recovery = setInterval(() => void runtime.recoverUnstarted().catch(() => undefined), 60_000);
        recovery.unref();
      },
      stop: async () => {
        if (recovery) clearInterval(recovery);
        await scheduler.stop();
        await lane.drain(HANDLER_LANE_GRACE_MS);
        await outbox.stop();
        await index.close();
        await unbridge?.();
      },
    },
  };
}
