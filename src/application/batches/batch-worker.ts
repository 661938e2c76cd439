// The batch worker each node runs: one order at a time from the running batches, at their pace, as their creators.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logging/logger.js';
import { authorize } from '../../auth/authorize.js';
import type { Principal } from '../../auth/principal.js';
import { DomainError, type ErrorKind } from '../../domain/errors.js';
import { isDatabaseUnavailable, isStatementCancelled } from '../../db/database-unavailable.js';
import { currentCreator } from '../../batches/batch-creator.js';
import { claimNext, recordOutcome, renewLease, runnableBatches, takeExpiredLease, type ClaimedItem, type ExpiredItem } from '../../batches/batch-claims.js';
import { readBatchWork, type BatchWork } from '../../batches/batch-store.js';
import type { BatchOutcome } from '../../batches/batch-view.js';
import type { OperationRegistry } from '../operation-registry.js';
import { batchOperationOf, type BatchServices, type ItemOutcome } from './batch-operation-table.js';

export interface BatchWorkerOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The registry the orders' operations run through (the one every face calls). */
  registry: () => OperationRegistry;
  /** What batch operations use besides the registry (migrate's move of one order). */
  services: BatchServices;
  /** How long a claim holds an order without renewal (default 20 s); renewed every third of it while it runs. */
  leaseMs?: number;
  /** The longest sleep between looks for work committed by other nodes (default 1 s). */
  pollMs?: number;
  /** How often expired leases are looked for (default 5 s). */
  recoverMs?: number;
  /** How long a node trusts what it read of a batch creator's standing (default 5 s). */
  creatorTtlMs?: number;
}

/** Refusals that can pass with time: the order is left to its lease and tried again, not recorded. */
const TRANSIENT: ReadonlySet<ErrorKind> = new Set(['unavailable', 'throttled']);

/** The message of an order whose node stopped after the order changed: it is not run a second time. */
export const UNCERTAIN_OUTCOME =
  'Outcome unknown: the node processing this order stopped before recording it, and the order has changed since, so it is not run again (at most once per batch)';

/**
 * Verdict on an order whose lease expired: run it again when nothing can have happened twice (its
 * operation is idempotent per batch and order, or the order row is the version seen at the claim: the
 * operation did not commit), else record it as failed without running it (docs/batches.md).
 */
export function expiredVerdict(item: ExpiredItem): { retry: true } | { outcome: BatchOutcome; error: string } {
  const op = batchOperationOf(item.operation);
  if (op?.idempotent || item.markAtClaim === item.markNow) return { retry: true };
  return { outcome: 'failed', error: UNCERTAIN_OUTCOME };
}

const isTransient = (err: unknown) =>
  isDatabaseUnavailable(err) || isStatementCancelled(err) || (err instanceof DomainError && TRANSIENT.has(err.kind));

/**
 * Loops until stopped: recovers expired leases now and then; otherwise claims the next order of a
 * running batch whose pace allows (round robin over the batches, so one batch does not hold back
 * another), runs it, records the outcome, and sleeps until the earliest pace or the poll period when
 * nothing can start. One order at a time per node: a batch takes one pooled connection for its claim
 * and the operation takes the order's lock like any other caller.
 */
export class BatchWorker {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly recoverMs: number;
  private readonly creatorTtlMs: number;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** A wake-up that came while the loop was busy: its next sleep ends at once. */
  private woken = false;
  /** This node's worker, as its claims record it. */
  readonly id = `worker_${randomUUID().slice(0, 8)}`;
  private turn = 0;
  private nextRecovery = 0;
  /** A batch's operation, input and creator never change: read once per node. */
  private readonly works = new Map<string, BatchWork>();
  /** The creator's standing, re-read at most every creatorTtlMs per batch (a disable or revoke reaches the batch within it). */
  private readonly creators = new Map<string, { at: number; caller: Promise<Principal> }>();

  constructor(private readonly o: BatchWorkerOptions) {
    this.leaseMs = o.leaseMs ?? 20_000;
    this.pollMs = o.pollMs ?? 1_000;
    this.recoverMs = o.recoverMs ?? 5_000;
    this.creatorTtlMs = o.creatorTtlMs ?? 5_000;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Looks for work now (a batch started or resumed on this node). */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /**
   * Stops claiming and waits for the order under way (its operation and outcome) up to `graceMs`; an order
   * still running after that keeps its claim and is recovered from its lease by whichever node looks next.
   */
  async stop(graceMs = 3_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loop, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let sleepMs = this.pollMs;
      try {
        if (Date.now() >= this.nextRecovery) {
          this.nextRecovery = Date.now() + this.recoverMs;
          while (!this.stopped && (await takeExpiredLease(this.o.db, expiredVerdict, this.o.clock.now())));
        }
        const ran = await this.once();
        if (ran === true) continue;
        sleepMs = Math.min(sleepMs, ran);
      } catch (err) {
        this.o.logger.warn({ err: (err as Error).message }, 'batch worker: round failed; trying again');
      }
      await this.sleep(sleepMs);
    }
  }

  /** Claims and runs one order: true when it ran one, else how long to sleep (ms). */
  private async once(): Promise<true | number> {
    const batches = await runnableBatches(this.o.db);
    let wait = this.pollMs;
    for (let i = 0; i < batches.length && !this.stopped; i++) {
      const batchId = batches[(this.turn + i) % batches.length];
      const attempt = await claimNext(this.o.db, batchId, randomUUID(), this.id, this.leaseMs);
      if ('item' in attempt) {
        this.turn = (this.turn + i + 1) % batches.length;
        await this.process(attempt.item);
        return true;
      }
      if ('waitMs' in attempt) wait = Math.min(wait, attempt.waitMs);
    }
    return wait;
  }

  /** Runs one claimed order and records its outcome (a transient failure leaves it to its lease). */
  private async process(item: ClaimedItem): Promise<void> {
    const renew = setInterval(() => {
      renewLease(this.o.db, item, this.leaseMs).catch((err: unknown) => this.o.logger.warn({ err: (err as Error).message, batchId: item.batchId }, 'batch worker: lease not renewed'));
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    let result: ItemOutcome;
    try {
      const work = this.works.get(item.batchId) ?? (await readBatchWork(this.o.db, item.batchId));
      if (work && this.works.size > 1_000) this.works.clear();
      if (work) this.works.set(work.id, work);
      result = work ? await this.runOrder(work, item.orderId) : { outcome: 'failed', error: 'The batch is gone' };
    } catch (err) {
      if (isTransient(err)) {
        this.o.logger.warn({ err: (err as Error).message, batchId: item.batchId, orderId: item.orderId }, 'batch worker: order left to its lease (transient failure)');
        return;
      }
      if (err instanceof DomainError) result = { outcome: 'skipped', error: err.message };
      else {
        this.o.logger.error({ err, batchId: item.batchId, orderId: item.orderId }, 'batch worker: unexpected error on an order');
        result = { outcome: 'failed', error: 'Internal error (the service log has the details)' };
      }
    } finally {
      clearInterval(renew);
    }
    const recorded = await recordOutcome(this.o.db, item, result.outcome, result.error ?? null, this.o.clock.now()).catch((err: unknown) => {
      this.o.logger.warn({ err: (err as Error).message, batchId: item.batchId, orderId: item.orderId }, 'batch worker: outcome not recorded; left to its lease');
      return true;
    });
    if (!recorded) this.o.logger.warn({ batchId: item.batchId, orderId: item.orderId }, 'batch worker: claim lost before the outcome was recorded');
  }

  /** The order's run as the creator would do it alone: their current standing, the operation's role, then the operation. */
  private async runOrder(work: BatchWork, orderId: string): Promise<ItemOutcome> {
    const op = batchOperationOf(work.operation);
    if (!op) return { outcome: 'failed', error: `This service does not know the operation ${work.operation}` };
    const registry = this.o.registry();
    const runs = registry.get(op.runs);
    if (!runs) return { outcome: 'failed', error: `This service does not know the operation ${work.operation}` };
    const caller = authorize(await this.creator(work), runs.role, runs.allowRestricted);
    const input: unknown = op.input.parse(work.input);
    return op.run({ registry, services: this.o.services, caller, orderId, input, batchId: work.id, db: this.o.db });
  }

  /** The creator as they may act now (a refusal when they cannot), cached briefly per batch. */
  private creator(work: BatchWork): Promise<Principal> {
    const now = Date.now();
    const cached = this.creators.get(work.id);
    if (cached && now - cached.at < this.creatorTtlMs) return cached.caller;
    const caller = currentCreator(this.o.db, work.creator, this.o.clock.now());
    // A transient failure is not remembered: the next order reads again.
    caller.catch((err: unknown) => {
      if (isTransient(err)) this.creators.delete(work.id);
    });
    if (this.creators.size > 1_000) this.creators.clear();
    this.creators.set(work.id, { at: now, caller });
    return caller;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }
}
