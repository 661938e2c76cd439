// The at-least-once attempt worker of every outbound sink (webhook deliveries, notifications, A2A push): claim, send, record, retry schedule.
import { InFlight } from '../../lib/in-flight.js';
import type { Queryable } from '../../db/db.js';
import type { Logger } from '../../logging/logger.js';
import type { Clock } from '../../platform/clock.js';
import type { TimerIndexEntry } from '../scheduler/timer-index.js';
import { cancel as cancelTimer, claimAttemptTimer, getTimer, reschedule, schedule } from '../scheduler/timer-store.js';
import { KeyedQueue } from '../runtime/keyed-queue.js';
import { attemptOfTimer, attemptTimer, attemptTimerId, guardDueAt, MAX_ATTEMPTS, retryDelay, type AttemptTimerKind } from './attempt-schedule.js';

/** What the worker reads of a sink's row (locked): attempts are made only while it is `pending`. */
export interface AttemptRow {
  id: string;
  status: string;
  attempts: number;
}

/** How one send ended; `error` is kept in the row (cut to 1,000 characters) and never carries a secret. */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status, for sinks that POST. */
  status?: number | null;
  error: string | null;
}

/** delivered: a send succeeded; failed: the last attempt failed; retry: a later attempt is scheduled. */
export type AttemptOutcome = 'delivered' | 'failed' | 'retry';

/** An attempt's result as the sink records it, in the transaction that decided the outcome. */
export interface RecordedAttempt<Row> {
  /** The row, locked again. */
  row: Row;
  attempt: number;
  result: AttemptResult;
  outcome: AttemptOutcome;
  /** `result.error` cut to 1,000 characters. */
  error: string | null;
  now: number;
}

/** Why the guard after the last attempt fails a row: that attempt's result was never recorded (a crash mid-send). */
export const UNRECORDED_ERROR = 'No result recorded for the last attempt';

/**
 * What differs between sinks: the table (its SQL stays here), the payload and the transport. Every method that
 * takes `tx` runs inside the worker's claim or record transaction.
 */
export interface AttemptSink<Row extends AttemptRow, Job> {
  /** Names the attempts in log lines (`webhook delivery`). */
  readonly label: string;
  readonly timer: AttemptTimerKind;
  /** Locks the row for the rest of the transaction; null when it is gone. */
  lock(tx: Queryable, id: string): Promise<Row | null>;
  /**
   * Takes attempt `n` of a pending row whose turn it is: sets its attempts to `n` and returns what `send`
   * needs; null (no attempt, the row stays as it is) when its target is gone (a deleted subscription).
   */
  begin(tx: Queryable, row: Row, n: number, now: number): Promise<Job | null>;
  /** One send; a throw counts as a failed attempt (retried). */
  send(job: Job): Promise<AttemptResult>;
  /** Writes the attempt's outcome into the row (the worker cancels or moves the next guard timer). */
  record(tx: Queryable, attempt: RecordedAttempt<Row>): Promise<void>;
  /** Marks the row failed with UNRECORDED_ERROR unless it holds an error already. */
  failUnrecorded(tx: Queryable, row: Row, now: number): Promise<void>;
  /** Told after each recorded attempt commits (metrics). */
  recorded?(outcome: AttemptOutcome, attempt: number): void;
  /**
   * For sinks that keep first attempts in order: the never-attempted rows of the chain a first attempt's guard
   * belongs to, up to and including that row, in order (guards of one commit fall due together and fire in
   * id order; each makes the earlier ones first, so none overtakes another). Null when the row is gone.
   */
  chainBefore?(q: Queryable, id: string): Promise<{ chain: string; ids: string[] } | null>;
}

/** The database as the worker uses it (a Db): one-off reads, and transactions for the claim and the record. */
export interface AttemptDb extends Queryable {
  tx<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

export interface AttemptWorkerDeps {
  db: AttemptDb;
  clock: Clock;
  logger: Logger;
  /** How long one send may take (the outbound timeout): a guard timer waits past it. */
  timeoutMs: number;
  /** Indexes timers committed outside the runtime (the engine scheduler's notify). */
  notify(entries: TimerIndexEntry[]): Promise<void>;
}

/** A row just written with its first attempt's guard timer, handed over for the first attempt. */
export interface FirstAttempt {
  id: string;
  guardDueAt: number;
  /** First attempts of one chain go out one after another, in the order handed over (a subscription and order). */
  chain?: string;
}

/** How long a stop waits for first attempts in flight (a SIGTERM must exit within 10 s, src/main.ts). */
const STOP_GRACE_MS = 1_500;

/** An error kept in a row: at most this many characters. */
const ERROR_KEPT = 1_000;

export class AttemptWorker<Row extends AttemptRow, Job> {
  /** One attempt at a time per row in this process: a second firer waits and then finds the timer fired. */
  private readonly perRow = new KeyedQueue();
  private readonly chains = new KeyedQueue();
  /** Every attempt this worker started: the test clock's settle waits for them all. */
  private readonly all = new InFlight();
  /** First attempts: what a stop waits for (attempts fired by timers run in the engine's handler lane, which drains them). */
  private readonly first = new InFlight();
  private handedOver: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: AttemptWorkerDeps,
    private readonly sink: AttemptSink<Row, Job>,
  ) {}

  /**
   * First attempts of rows a transaction wrote. `committed` waits for that transaction (on a row it holds locked)
   * when this is called before it commits, so a rolled-back write sends nothing. Batches are handled in the order
   * they were handed over: the guard timers indexed, then the first attempts made.
   */
  firstAttempts(batch: readonly FirstAttempt[], committed?: () => Promise<unknown>): void {
    if (batch.length === 0 || this.stopped) return;
    const run = this.handedOver.then(async () => {
      if (committed) await committed();
      await this.deps.notify(batch.map((b) => ({ id: attemptTimerId(b.id, 1), dueAt: b.guardDueAt })));
      for (const b of batch) {
        const attempt = () => this.attempt(b.id, 1, 'direct');
        this.trackFirst(b.chain === undefined ? attempt() : this.chains.run(b.chain, attempt));
      }
    });
    this.handedOver = run.catch((err: unknown) => this.deps.logger.error({ err }, `${this.sink.label} first attempts failed`));
    this.trackFirst(this.handedOver);
  }

  /** The durable timer handler of the sink's kind: a retry, or a guard after a lost attempt. */
  async fireTimer(timerId: string): Promise<void> {
    const timer = await getTimer(this.deps.db, timerId);
    const due = attemptOfTimer(this.sink.timer, timer?.payload);
    if (!due) return;
    const run = due.attempt === 1 && this.sink.chainBefore ? this.firstByGuard(due.rowId) : this.attempt(due.rowId, due.attempt, 'timer');
    // Tracked, so idle() (the test clock's settle) also waits for attempts the scheduler's own loop started.
    this.all.track(run, (err) => this.logFailed(err));
    await run;
  }

  /** Resolves once every attempt started so far (and any started meanwhile) has finished. */
  async idle(): Promise<void> {
    await this.all.idle();
  }

  /**
   * Stops making first attempts and waits for those in flight, at most `graceMs`: an attempt still hanging
   * then (a receiver that does not answer) must not hold the shutdown for the outbound timeout. Its claim
   * committed before the send, so its guard timer makes it again after a restart, with the same id.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopped = true;
    await this.first.settleWithin(graceMs);
  }

  /**
   * Attempt `n` of a row. The claim (timer fired, attempts = n, a guard timer for n+1) commits before the send,
   * so no transaction stays open over the network and a crash mid-send is redone by the guard (at least once,
   * same row id); the result is recorded after it. A timer whose attempt already happened, a row no longer
   * pending, or a target that is gone makes this a no-op.
   */
  attempt(id: string, n: number, via: 'direct' | 'timer'): Promise<void> {
    return this.perRow.run(id, async () => {
      const claim = await this.claim(id, n, via);
      if (!claim) return;
      await this.deps.notify([claim.guard]);
      const result = await this.sink.send(claim.job).catch((err: unknown) => ({ ok: false, status: null, error: err instanceof Error ? err.message : String(err) }));
      const retry = await this.record(id, n, result);
      if (retry) await this.deps.notify([retry]);
    });
  }

  private async firstByGuard(id: string): Promise<void> {
    const chain = await this.sink.chainBefore?.(this.deps.db, id);
    if (!chain) return;
    await this.chains.run(chain.chain, async () => {
      for (const rowId of chain.ids) await this.attempt(rowId, 1, 'timer');
    });
  }

  private trackFirst(p: Promise<unknown>): void {
    this.all.track(p, (err) => this.logFailed(err));
    this.first.track(p, () => undefined);
  }

  private logFailed(err: unknown): void {
    this.deps.logger.error({ err }, `${this.sink.label} attempt failed`);
  }

  private claim(id: string, n: number, via: 'direct' | 'timer'): Promise<{ job: Job; guard: TimerIndexEntry } | null> {
    const { db, clock, timeoutMs } = this.deps;
    return db.tx(async (tx) => {
      const row = await this.sink.lock(tx, id);
      const now = clock.now();
      if (!(await claimAttemptTimer(tx, attemptTimerId(id, n), via, now))) return null;
      if (!row || row.status !== 'pending' || row.attempts !== n - 1) return null;
      if (n > MAX_ATTEMPTS) {
        // The guard after the last attempt: that attempt's result was never recorded (a crash).
        await this.sink.failUnrecorded(tx, row, now);
        return null;
      }
      const job = await this.sink.begin(tx, row, n, now);
      if (job === null) return null;
      const guard = attemptTimer(this.sink.timer, id, n + 1, guardDueAt(now, timeoutMs, n));
      await schedule(tx, guard, now);
      return { job, guard: { id: guard.id, dueAt: guard.dueAt } };
    });
  }

  /** Records attempt `n`; returns the retry timer when the next guard was moved to its due time. */
  private async record(id: string, n: number, result: AttemptResult): Promise<TimerIndexEntry | null> {
    const { db, clock } = this.deps;
    const recorded = await db.tx(async (tx) => {
      const row = await this.sink.lock(tx, id);
      if (!row || row.status !== 'pending' || row.attempts !== n) return null;
      const now = clock.now();
      const delay = retryDelay(n);
      const outcome: AttemptOutcome = result.ok ? 'delivered' : delay === null ? 'failed' : 'retry';
      const error = result.error ? result.error.slice(0, ERROR_KEPT) : null;
      const guardId = attemptTimerId(id, n + 1);
      await this.sink.record(tx, { row, attempt: n, result, outcome, error, now });
      if (delay === null || outcome === 'delivered') {
        await cancelTimer(tx, guardId, now);
        return { outcome, retry: null };
      }
      const dueAt = now + delay;
      const moved = await reschedule(tx, guardId, dueAt);
      this.deps.logger.debug({ [this.sink.timer.idKey]: id, attempt: n, error, retryAt: dueAt }, `${this.sink.label} attempt failed; retry scheduled`);
      return { outcome, retry: moved ? { id: guardId, dueAt } : null };
    });
    if (recorded) this.sink.recorded?.(recorded.outcome, n);
    return recorded?.retry ?? null;
  }
}
