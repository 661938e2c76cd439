// The actor host: start, deliver event, decide approval, fire timer, retry, cancel, resolve a hold — each a command
// against one order, serialised in-process per order and by the order row lock across processes.
import { EventEmitter } from 'node:events';
import type { PoolClient } from 'pg';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { FlowRegistry } from '../flows/flow-registry.js';
import type { NewTimer } from '../scheduler/timer-store.js';
import * as timerStore from '../scheduler/timer-store.js';
import { conflict, DomainError, notFound } from '../../domain/errors.js';
import { KeyedQueue } from './keyed-queue.js';
import { isFinished, toRunRow, type RunDbRow } from './run-row.js';
import type { OrderSubject } from '../order-subject.js';
import { RunHost } from '../run/run-host.js';
import { TIMER_KINDS } from '../run/run-timers.js';
import { answerAwaited, approvalWait, awaitedEvents, eventWait, heldAt, retryDue, timeoutWait, timerOfRun } from '../run/input-match.js';
import type { HoldAction } from '../run/run-input.js';
import { beginAndLockOrder, type LockedOrder } from './order-lock.js';
import { StalePreparedPlan } from './stale-prepared-plan.js';
import { onCommandConnection } from './command-connection.js';
import { namedStatementsBeginning } from './named-statements.js';
import type { StepPortsFactory } from '../step-store.js';
import type { EngineProbe, SliceCommand } from '../engine-probe.js';
import { withSpan } from '../../telemetry/spans.js';
import type { ExternalAnswer } from '../node-type.js';
import { readCall, recordAnswer } from './order-calls.js';
import { ReferenceCache, type ReferenceVersion } from '../../db/reference-cache.js';
import type { CachedRead } from '../../db/transaction-read-cache.js';
import { moveRun, type MoveTarget } from '../migration/move-run.js';
import { readPendingTimers } from '../migration/pending-timers.js';
import { writeMove } from '../migration/move-write.js';

/** How many connections with stale prepared statements a command discards before giving up (pool size is 10-20). */
const MAX_STALE_PLAN_RETRIES = 32;

export interface RuntimeDeps {
  db: Db;
  clock: Clock;
  flows: FlowRegistry;
  /** Builds the ports steps receive over each slice's store (engine-module.ts). */
  ports: StepPortsFactory;
  /** The order's business side (the host's): its facts read with the row, its event summary and filing, the columns steps change. */
  subject: OrderSubject;
  /** Called after a commit with the timers it scheduled (the scheduler indexes those due soon). */
  onTimers?: (timers: readonly NewTimer[]) => void;
  /** Called after a commit that wrote outbox rows (the dispatcher wakes up). */
  onOutbox?: (ids: string[]) => void;
  /** Told about every committed slice (metrics, lifecycle logs); listeners are cheap and synchronous. */
  probe?: EngineProbe;
}

/**
 * How a command's transaction opens: BEGIN and the locked order with what a slice needs of it,
 * or null when there is nothing to run. Leaves the transaction open either way.
 */
type OpenCommand = (client: PoolClient) => Promise<LockedOrder | null>;

/** The usual opening: BEGIN, lock the existing order and read its state (404 when there is none). */
function lockExisting(orderId: string, subject: OrderSubject): OpenCommand {
  return async (client) => {
    const locked = await beginAndLockOrder(client, orderId, subject);
    if (!locked) throw notFound('Order');
    return locked;
  };
}

/** A committed change to an order, for live views (in-process; the web layer fans out across nodes). */
export interface OrderChange {
  orderId: string;
  status: string;
  at: number;
  /** Another order this change concerns (OrderSubject.related: a return's order, whose page shows the return). */
  related?: string;
}

export interface DeliverResult {
  delivered: boolean;
  nodeId?: string;
  /** When nothing was delivered: the events the order waits for now (none once it has finished). */
  waitingFor?: string[];
}

/** A move of one order to another version of its flow (contract 15): old node id -> new in `mapping`. */
export interface MovePlan {
  flowId: string;
  fromVersion: number;
  toVersion: number;
  mapping: Readonly<Record<string, string>>;
}

/** How a move ended: moved now, already on the target version (a repeat), or refused with the reason naming the node. */
export type MoveOutcome = { outcome: 'moved' } | { outcome: 'already' } | { outcome: 'refused'; reason: string };

export class OrderRuntime {
  private readonly queue = new KeyedQueue();
  /** Reference data (settings, products, sellers) slices read, per version (reference-cache.ts). */
  private readonly referenceCache = new ReferenceCache();
  readonly changes = new EventEmitter();

  constructor(private readonly deps: RuntimeDeps) {
    this.changes.setMaxListeners(0);
  }

  /** Orders with a command queued or running in this process: 0 when idle (no actor lives in memory). */
  get liveOrders(): number {
    return this.queue.size;
  }

  /**
   * Starts orders that were recorded but never started (the process died between the insert
   * and the first slice, and no client retried). Returns how many it started.
   */
  async recoverUnstarted(olderThanMs = 30_000): Promise<number> {
    const { rows } = await this.deps.db.query<{ id: string }>(
      'SELECT id FROM orders WHERE NOT started AND created_at <= $1 ORDER BY created_at LIMIT 500',
      [this.deps.clock.now() - olderThanMs],
    );
    for (const r of rows) await this.start(r.id);
    return rows.length;
  }

  /**
   * Runs `fn` over the locked order inside one transaction and commits once. `fn` returns
   * the slice it drove (or null when it changed nothing) and a result for the caller.
   * A step's failure is its slice's business (step-invoker.ts: rolled back to the savepoint its
   * first write opened); the command is tried again only on a fresh connection when a prepared
   * statement went stale.
   */
  private async command<T>(
    kind: SliceCommand,
    orderId: string,
    fn: (tx: PoolClient, locked: LockedOrder) => Promise<{ slice: RunHost | null; result: T }>,
    open: OpenCommand = lockExisting(orderId, this.deps.subject),
  ): Promise<T> {
    return this.queue.run(orderId, () => withSpan(`order.${kind}`, { 'order.id': orderId }, () => this.commandInQueue(kind, orderId, fn, open)));
  }

  /** The body of a command inside its queue slot (and span): attempts until one commits, then tells listeners. */
  private async commandInQueue<T>(
    kind: SliceCommand,
    orderId: string,
    fn: (tx: PoolClient, locked: LockedOrder) => Promise<{ slice: RunHost | null; result: T }>,
    open: OpenCommand,
  ): Promise<T> {
    const began = performance.now();
    let attempts = 0;
    let outcome: { slice: RunHost | null; result: T | undefined; outboxIds: string[]; from: string } | null = null;
    for (let stale = 0; !outcome; ) {
      try {
        attempts += 1;
        outcome = await this.attempt(open, fn);
      } catch (err) {
        // Each stale connection was discarded; the pool may hand out a few more prepared before the migration.
        if (err instanceof StalePreparedPlan && ++stale <= MAX_STALE_PLAN_RETRIES) continue;
        throw err;
      }
    }
    const { slice: done, result, outboxIds, from } = outcome;
    if (done) {
      if (done.timers.length) this.deps.onTimers?.(done.timers);
      if (outboxIds.length) this.deps.onOutbox?.(outboxIds);
      const related = this.deps.subject.related?.(done.order.facts) ?? null;
      const change: OrderChange = { orderId, status: done.order.status, at: this.deps.clock.now(), ...(related !== null ? { related } : {}) };
      // 'change' is every change any node made (live views listen); 'local' only this node's (bridged to Redis).
      this.changes.emit('change', change);
      this.changes.emit('local', change);
      const { order } = done;
      this.deps.probe?.emit('slice', {
        orderId,
        flowId: order.flowId,
        flowVersion: order.flowVersion,
        command: kind,
        from,
        to: order.status,
        reason: order.reason,
        createdAt: order.createdAt,
        at: change.at,
        ms: performance.now() - began,
        statements: done.statements + 2,
        attempts,
        waitKinds: done.openWaits.map((w) => w.kind),
      });
    }
    // Undefined only when `open` found nothing to run (startNew's replay): every other command's `open` throws instead.
    return result as T;
  }

  /**
   * One try of a command on its own pool client: `open` (BEGIN with the order lock and reads in
   * one round trip, order-lock.ts; or BEGIN and the new order's insert), `fn`, the slice's
   * writes in one statement, COMMIT. Rolls back on any throw. When `open` finds nothing to run
   * (an idempotent replay of a start), it commits what it did and `fn` does not run.
   */
  private async attempt<T>(
    open: OpenCommand,
    fn: (tx: PoolClient, locked: LockedOrder) => Promise<{ slice: RunHost | null; result: T }>,
  ): Promise<{ slice: RunHost | null; result: T | undefined; outboxIds: string[]; from: string }> {
    return onCommandConnection(this.deps.db.pool, async (client, ended) => {
      const locked = await open(client);
      if (!locked) {
        await client.query('COMMIT');
        ended();
        return { slice: null, result: undefined, outboxIds: [], from: '' };
      }
      // The slice updates the row object in place: keep the status it had before the command.
      const from = locked.order.status;
      const out = await fn(client, locked);
      // The slice's write and COMMIT go together (StepInvoker.writeAndCommit); a command that drove no slice only commits.
      const outboxIds = out.slice ? await out.slice.commit() : [];
      if (!out.slice) await client.query('COMMIT');
      ended();
      return { ...out, outboxIds, from };
    });
  }

  private async openSlice(tx: PoolClient, locked: LockedOrder): Promise<RunHost> {
    const { order } = locked;
    const { compiled } = await this.deps.flows.load(tx, order.flowId, order.flowVersion);
    return RunHost.open(
      tx,
      order,
      compiled,
      { clock: this.deps.clock, referenceCache: this.referenceCache, ports: this.deps.ports, subject: this.deps.subject },
      locked,
    );
  }

  /** Runs the first slice of a recorded order; a no-op when it already started (idempotent). */
  async start(orderId: string): Promise<void> {
    await this.command('start', orderId, this.firstSlice);
  }

  /**
   * Records a new order and runs its first slice in one transaction (one BEGIN and COMMIT, no
   * lock to wait for: nobody else sees the row before the commit). `record` writes the order in
   * the transaction and answers its row as stored (read here as the lock reads it), or null when there is nothing to start (an idempotent
   * replay: what it wrote commits, no slice runs). A command retried on a fresh connection calls it again
   * in the new transaction. True when the order was recorded and started.
   */
  async startNew(
    orderId: string,
    record: (tx: Queryable) => Promise<{ row: RunDbRow; referenceVersion: ReferenceVersion | null; seeds?: readonly CachedRead[]; newRow?: string } | null>,
  ): Promise<boolean> {
    const started = await this.command('start', orderId, async (tx, locked) => ({ ...(await this.firstSlice(tx, locked)), result: true }), async (client) => {
      // Its statements (the start context, the order's insert) are the same for every order: prepared once per
      // connection; the first carries BEGIN in its round trip.
      const tx = namedStatementsBeginning(client);
      const recorded = await record(tx.q);
      await tx.begin();
      if (!recorded) return null;
      const { row, referenceVersion, seeds, newRow } = recorded;
      return { order: toRunRow(row, this.deps.subject), referenceVersion, ...(seeds ? { seeds } : {}), ...(newRow ? { newRow } : {}), nodes: new Map(), waits: [], holds: [] };
    });
    return started === true;
  }

  private readonly firstSlice = async (tx: PoolClient, locked: LockedOrder): Promise<{ slice: RunHost | null; result: undefined }> => {
    const { order } = locked;
    if (order.started) return { slice: null, result: undefined };
    const slice = await this.openSlice(tx, locked);
    await slice.apply({ type: 'start' });
    return { slice, result: undefined };
  };

  /**
   * Delivers a business event to the node waiting for it; `{ delivered: false }` changes nothing.
   * `onDelivered` runs inside the delivery's transaction (e.g. to record a replay receipt): if it
   * throws, nothing of the delivery commits.
   */
  async deliverEvent(
    orderId: string,
    event: string,
    payload: Record<string, unknown>,
    onDelivered?: (tx: PoolClient, nodeId: string) => Promise<void>,
  ): Promise<DeliverResult> {
    return this.command<DeliverResult>('event', orderId, async (tx, locked) => {
      const { order } = locked;
      if (isFinished(order.status)) return { slice: null, result: { delivered: false, waitingFor: [] } };
      const wait = eventWait(locked.waits, order.generation, event);
      // Nothing waits for this event: say what the order does wait for, so a caller can fix a misspelt name.
      if (!wait) return { slice: null, result: { delivered: false, waitingFor: awaitedEvents(locked.waits, order.generation) } };
      const slice = await this.openSlice(tx, locked);
      await slice.apply({ type: 'event', event, payload });
      if (onDelivered) await onDelivered(tx, wait.nodeId);
      return { slice, result: { delivered: true, nodeId: wait.nodeId } };
    });
  }

  /** Decides the approval waiting at `nodeId`; 409 when that node is not waiting for one. */
  async decideApproval(orderId: string, nodeId: string, decision: 'approved' | 'rejected', by: string, note: string | null): Promise<void> {
    await this.command('approval', orderId, async (tx, locked) => {
      const { order } = locked;
      if (!approvalWait(locked.waits, order.generation, nodeId) || isFinished(order.status)) throw new DomainError('not_waiting', 'That node is not waiting for an approval', 'conflict');
      const slice = await this.openSlice(tx, locked);
      await slice.apply({ type: 'approval', nodeId, decision, by, note });
      return { slice, result: undefined };
    });
  }

  /** Cancels an unfinished order (undoing its work); 409 when it already ended. */
  async cancel(orderId: string, reason: string): Promise<void> {
    await this.command('cancel', orderId, async (tx, locked) => {
      const { order } = locked;
      if (isFinished(order.status)) throw conflict(`Order already ${order.status.replace('_', ' ')}`);
      const slice = await this.openSlice(tx, locked);
      await slice.apply({ type: 'cancel', reason });
      return { slice, result: undefined };
    });
  }

  /**
   * Resolves the hold at `nodeId` (contract 16): `retry` runs the same run of the step again (its
   * next attempt), `rollback` applies the rules the step would have had; 409 when that node is not held.
   */
  async resolveHold(orderId: string, nodeId: string, action: HoldAction, by: string, note: string | null): Promise<void> {
    await this.command('hold', orderId, async (tx, locked) => {
      const { order } = locked;
      if (isFinished(order.status) || !heldAt(locked.holds, order.generation, nodeId)) throw new DomainError('not_held', 'That node is not held', 'conflict');
      const slice = await this.openSlice(tx, locked);
      await slice.apply({ type: 'resolveHold', nodeId, action, by, note });
      return { slice, result: undefined };
    });
  }

  /**
   * Takes the answer of an external call (made outside any transaction by the call executor):
   * inside the order's lock it is recorded once (a repeat of an answered call changes nothing),
   * then the step's `answer` continues the run when the run still waits for exactly this call.
   * Otherwise (cancelled meanwhile, a newer attempt, another generation) it is a late answer:
   * recorded in the timeline, nothing else. An undo call's answer is recorded (and retried).
   */
  async answerCall(orderId: string, callId: string, answer: ExternalAnswer): Promise<void> {
    await this.command('call', orderId, async (tx, locked) => {
      const call = await readCall(tx, callId);
      if (!call || call.status !== 'pending') return { slice: null, result: undefined };
      const slice = await this.openSlice(tx, locked);
      const current = answerAwaited(slice.runState, call);
      await recordAnswer(tx, callId, answer, current || call.purpose === 'undo' ? 'answered' : 'late', this.deps.clock.now());
      await slice.apply({ type: 'answer', call, answer });
      return { slice, result: undefined };
    });
  }

  /**
   * Moves the order to another version of its flow (contract 15), alone and atomically under its
   * lock (the in-process queue and the row lock every command takes): moveRun's verdict on the state
   * read with the lock, written in the same transaction. An order already on the target version
   * (a batch's repeat after a crash) answers `already` and changes nothing; 404 for an unknown order.
   */
  async move(orderId: string, plan: MovePlan): Promise<MoveOutcome> {
    return this.queue.run(orderId, () => withSpan('order.move', { 'order.id': orderId }, () => this.moveInQueue(orderId, plan)));
  }

  private async moveInQueue(orderId: string, plan: MovePlan): Promise<MoveOutcome> {
    const { db, clock, flows } = this.deps;
    return onCommandConnection(db.pool, async (client, ended): Promise<MoveOutcome> => {
      const locked = await beginAndLockOrder(client, orderId, this.deps.subject);
      if (!locked) throw notFound('Order');
      const { order } = locked;
      if (order.flowId === plan.flowId && order.flowVersion === plan.toVersion && plan.toVersion !== plan.fromVersion && !isFinished(order.status)) {
        await client.query('ROLLBACK');
        ended();
        return { outcome: 'already' };
      }
      const target: MoveTarget = {
        ...plan,
        from: (await flows.load(client, plan.flowId, plan.fromVersion)).compiled,
        to: (await flows.load(client, plan.flowId, plan.toVersion)).compiled,
      };
      const timers = await readPendingTimers(client, orderId);
      const now = clock.now();
      const verdict = moveRun(target, { order, nodes: locked.nodes, waits: locked.waits, holds: locked.holds, timers }, now);
      if ('refused' in verdict) {
        await client.query('ROLLBACK');
        ended();
        return { outcome: 'refused', reason: verdict.refused };
      }
      const { moved } = verdict;
      const label = (nodeId: string) => target.to.nodes.get(nodeId)?.node.label ?? nodeId;
      const waitingAt = [...moved.waits.map((w) => label(w.nodeId)), ...moved.holds.map((h) => label(h.nodeId))];
      await writeMove(client, { orderId, generation: order.generation, toVersion: plan.toVersion, moved, waitingAt, now });
      await client.query('COMMIT');
      ended();
      const related = this.deps.subject.related?.(order.facts) ?? null;
      const change: OrderChange = { orderId, status: order.status, at: clock.now(), ...(related !== null ? { related } : {}) };
      this.changes.emit('change', change);
      this.changes.emit('local', change);
      return { outcome: 'moved' };
    });
  }


  /**
   * Fires one durable timer of `orderId` (the caller read it from the pending timer row, which
   * spares locking the order for a timer already fired), idempotently: the timer row is claimed inside the order's
   * transaction (after the order lock, the same lock order as every other command), so a
   * timer fired twice or for a wait already answered does nothing.
   */
  async fireTimer(timerId: string, orderId: string): Promise<void> {
    await this.command('timer', orderId, async (tx, locked) => {
      const { order } = locked;
      const timer = await timerStore.claimAndMarkFired(tx, timerId, this.deps.clock.now());
      if (!timer) return { slice: null, result: undefined };
      if (!timerOfRun(order, timer.payload)) return { slice: null, result: undefined };
      if (timer.kind === TIMER_KINDS.waitTimeout) {
        if (!timeoutWait(locked.waits, timerId)) return { slice: null, result: undefined };
        const slice = await this.openSlice(tx, locked);
        await slice.apply({ type: 'timer', timer });
        return { slice, result: undefined };
      }
      if (timer.kind === TIMER_KINDS.stepRetry) {
        const slice = await this.openSlice(tx, locked);
        if (retryDue(slice.runState, timer) === null) return { slice: null, result: undefined };
        await slice.apply({ type: 'timer', timer });
        return { slice, result: undefined };
      }
      return { slice: null, result: undefined };
    });
  }
}
