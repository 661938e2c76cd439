// Scheduler: keeps the timer index seeded from PostgreSQL and fires each due timer through the runtime.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { RoutedTimerEntry, TimerIndex, TimerIndexEntry, TimerRoute } from './timer-index.js';
import { dueWithin, leaseDue } from './timer-store.js';

/** The pino-shaped subset the scheduler logs through. */
export interface SchedulerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SchedulerOptions {
  db: Db;
  index: TimerIndex;
  clock: Clock;
  /**
   * The runtime's firing callback; idempotent (it claims the row with `claimForFiring` in its own
   * transaction). `route` is the timer's kind and order when this process indexed it (else the
   * callback reads the row).
   */
  fire: (timerId: string, route: TimerRoute | undefined) => Promise<void>;
  /** Only timers due within this many ms of now are kept in the index. */
  horizonMs?: number;
  /** Pause between claim rounds. */
  pollMs?: number;
  /** Period of the sweep that re-adds pending timers within the horizon. */
  sweepMs?: number;
  /** Most ids taken from the index in one claim. */
  batchSize?: number;
  /** Most fires running at once in this process. */
  concurrency?: number;
  /** While the index is down, how long a PostgreSQL lease keeps other nodes off a timer. */
  fallbackLeaseMs?: number;
  /** This process's name in `timers.claimed_by` (fallback leases only). */
  nodeId?: string;
  logger?: SchedulerLogger;
}

/** What /health/deep reports about the scheduler. */
export interface SchedulerStatus {
  running: boolean;
  index: TimerIndex['kind'];
  indexHealthy: boolean;
  /** True while the index fails and due timers are leased straight from PostgreSQL. */
  degraded: boolean;
  firing: number;
}

/** An index that can tell when its connection came back (the Redis one). */
interface ReconnectingIndex {
  onReconnect(cb: () => void): () => void;
}

function hasOnReconnect(index: TimerIndex): index is TimerIndex & ReconnectingIndex {
  return typeof (index as Partial<ReconnectingIndex>).onReconnect === 'function';
}

const silentLogger: SchedulerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Rows read from PostgreSQL per sweep page. */
const SWEEP_PAGE = 1_000;

/** Most routes kept for indexed timers (entries other nodes claim are never fired here: the map is cleared past this). */
const MAX_ROUTES = 50_000;

/** Shortest pause between two claim rounds (a round that found a timer already due claims it next time). */
const MIN_POLL_MS = 2;

/**
 * Combines the durable timer rows with a TimerIndex. PostgreSQL is the truth: `start()`
 * seeds the index with every pending timer due within the horizon (late ones included,
 * so they fire at once), a periodic sweep re-adds them (recovering ids lost by a crashed
 * claimer or a flushed Redis), and a Redis reconnect triggers a re-seed. The poll loop
 * claims due ids (each goes to one process) and hands them to `fire`. If the index fails,
 * the loop leases due timers from PostgreSQL instead so nothing waits on Redis. The same
 * id may still reach `fire` twice (e.g. re-added by a sweep while another node fires it);
 * `fire` is idempotent, so that is harmless.
 */
export class Scheduler {
  private readonly db: Db;
  private readonly index: TimerIndex;
  private readonly clock: Clock;
  private readonly fire: (timerId: string, route: TimerRoute | undefined) => Promise<void>;
  /** Kind and order of timers this process put in the index, so firing one needs no read to route it. */
  private readonly routes = new Map<string, TimerRoute>();
  private readonly horizonMs: number;
  private readonly pollMs: number;
  private readonly sweepMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly fallbackLeaseMs: number;
  private readonly nodeId: string;
  private readonly logger: SchedulerLogger;

  private running = false;
  private readonly inflight = new Map<string, Promise<void>>();
  private pollHandle: NodeJS.Timeout | undefined;
  private sweepHandle: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  /** The last claim filled the batch or all slots: more may be due right now. */
  private backlog = false;
  private indexDown = false;
  private sweepRunning: Promise<number> | null = null;
  private sweepQueued: Promise<number> | null = null;
  private unsubscribeReconnect: (() => void) | undefined;

  constructor(options: SchedulerOptions) {
    this.db = options.db;
    this.index = options.index;
    this.clock = options.clock;
    this.fire = options.fire;
    this.horizonMs = options.horizonMs ?? 60_000;
    this.pollMs = options.pollMs ?? 100;
    this.sweepMs = options.sweepMs ?? 5_000;
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 16;
    this.fallbackLeaseMs = options.fallbackLeaseMs ?? 30_000;
    this.nodeId = options.nodeId ?? randomUUID();
    this.logger = options.logger ?? silentLogger;
  }

  /** Fires currently in flight in this process (a gauge). */
  get firing(): number {
    return this.inflight.size;
  }

  /** True while the index is failing and the PostgreSQL fallback is in use. */
  get degraded(): boolean {
    return this.indexDown;
  }

  /**
   * Seeds the index from PostgreSQL and starts the poll and sweep loops. Rejects if
   * PostgreSQL cannot be read; an unavailable index only puts the scheduler in degraded mode.
   */
  async start(): Promise<void> {
    if (this.running) return;
    await this.sweep();
    this.running = true;
    if (hasOnReconnect(this.index)) {
      this.unsubscribeReconnect = this.index.onReconnect(() => {
        this.logger.info({ index: this.index.kind }, 'timer index reconnected: re-seeding from PostgreSQL');
        this.sweep().catch((err: unknown) => this.logger.error({ err }, 'timer re-seed failed'));
      });
    }
    this.schedulePoll(0);
    this.scheduleSweep();
  }

  /** Stops both loops and waits for the in-flight fires and sweep to finish. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.pollHandle);
    clearTimeout(this.sweepHandle);
    this.unsubscribeReconnect?.();
    this.unsubscribeReconnect = undefined;
    await this.ticking;
    await Promise.allSettled([this.sweepRunning, this.sweepQueued]);
    await Promise.allSettled([...this.inflight.values()]);
  }

  /**
   * Adds newly committed timers to the index when they fall within the horizon (later ones
   * are picked up by a sweep). Called by the runtime after its commit, so it never throws:
   * a failed add is logged and recovered by the sweep.
   */
  async notify(entries: RoutedTimerEntry[]): Promise<void> {
    const until = this.clock.now() + this.horizonMs;
    const soon = entries.filter((e) => e.dueAt <= until);
    if (soon.length === 0) return;
    this.remember(soon);
    try {
      await this.index.add(soon);
      this.noteIndexUp();
    } catch (err) {
      this.noteIndexDown(err);
      return;
    }
    // A timer already due should not wait for the next poll.
    if (soon.some((e) => e.dueAt <= this.clock.now())) this.kick();
  }

  /** Drops ids from the index (e.g. timers just cancelled); firing them would be a no-op anyway. Never throws. */
  async forget(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const id of ids) this.routes.delete(id);
    try {
      await this.index.remove(ids);
    } catch (err) {
      this.noteIndexDown(err);
    }
  }

  /**
   * Re-adds every pending timer due within the horizon to the index (late ones included);
   * returns how many it added. Also what the test clock calls after moving time forward.
   * Concurrent calls coalesce: at most one runs and one waits. Rejects only on a database error.
   */
  sweep(): Promise<number> {
    if (this.sweepQueued) return this.sweepQueued;
    if (this.sweepRunning) {
      this.sweepQueued = this.sweepRunning
        .catch(() => 0)
        .then(() => {
          this.sweepQueued = null;
          return this.runSweep();
        });
      return this.sweepQueued;
    }
    return this.runSweep();
  }

  /** Whether the scheduler is running and its index answers. */
  async healthy(): Promise<boolean> {
    return this.running && (await this.index.healthy());
  }

  async status(): Promise<SchedulerStatus> {
    return {
      running: this.running,
      index: this.index.kind,
      indexHealthy: await this.index.healthy(),
      degraded: this.indexDown,
      firing: this.inflight.size,
    };
  }

  private runSweep(): Promise<number> {
    const run = this.doSweep().finally(() => {
      if (this.sweepRunning === run) this.sweepRunning = null;
    });
    this.sweepRunning = run;
    return run;
  }

  private async doSweep(): Promise<number> {
    const until = this.clock.now() + this.horizonMs;
    let after: TimerIndexEntry | undefined;
    let added = 0;
    for (;;) {
      const page = await dueWithin(this.db, until, SWEEP_PAGE, after);
      // Ids firing here right now stay out: re-adding them would only cause a no-op re-fire.
      const entries = page.filter((e) => !this.inflight.has(e.id));
      this.remember(entries);
      if (entries.length > 0) {
        try {
          await this.index.add(entries);
          this.noteIndexUp();
        } catch (err) {
          this.noteIndexDown(err);
          return added;
        }
        added += entries.length;
      }
      if (page.length < SWEEP_PAGE) break;
      after = page[page.length - 1];
    }
    if (added > 0 && (await this.somethingDueNow())) this.kick();
    return added;
  }

  /** Whether the index holds a timer that is already due (then the poll runs at once). */
  private async somethingDueNow(): Promise<boolean> {
    try {
      const next = await this.index.nextDueAt();
      return next !== null && next <= this.clock.now();
    } catch {
      return false;
    }
  }

  private scheduleSweep(): void {
    if (!this.running) return;
    this.sweepHandle = setTimeout(() => {
      this.sweep()
        .catch((err: unknown) => this.logger.error({ err }, 'timer sweep failed'))
        .finally(() => this.scheduleSweep());
    }, this.sweepMs);
  }

  private schedulePoll(delayMs: number): void {
    if (!this.running) return;
    clearTimeout(this.pollHandle);
    this.pollHandle = setTimeout(() => this.kick(), delayMs);
  }

  /** Runs a claim round now, or right after the one in progress. */
  private kick(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    clearTimeout(this.pollHandle);
    this.ticking = this.tick()
      .then(() => this.untilNextDue())
      .then((delay) => {
        this.ticking = null;
        const again = this.tickAgain;
        this.tickAgain = false;
        this.schedulePoll(again ? 0 : delay);
      });
  }

  /**
   * How long the next claim round may wait: until the earliest indexed timer is due, at most
   * pollMs. Without it a timer is late by up to a poll period (50 ms on average at 100 ms).
   * With every fire slot taken the finishing fires kick the loop, so it waits the full period.
   */
  private async untilNextDue(): Promise<number> {
    if (this.backlog) return this.pollMs;
    try {
      const next = await this.index.nextDueAt();
      if (next === null) return this.pollMs;
      return Math.max(MIN_POLL_MS, Math.min(this.pollMs, next - this.clock.now()));
    } catch {
      return this.pollMs;
    }
  }

  /** Claims due ids while there are free slots and hands each to `fire`. Never throws. */
  private async tick(): Promise<void> {
    this.backlog = false;
    while (this.running) {
      const want = Math.min(this.batchSize, this.concurrency - this.inflight.size);
      if (want <= 0) {
        this.backlog = true;
        return;
      }
      const ids = await this.claim(want);
      for (const id of ids) this.launch(id);
      if (ids.length < want) return;
    }
  }

  /** Claims from the index; while it fails, leases due timers from PostgreSQL instead. */
  private async claim(limit: number): Promise<string[]> {
    const now = this.clock.now();
    try {
      const ids = await this.index.claimDue(now, limit);
      this.noteIndexUp();
      return ids;
    } catch (err) {
      this.noteIndexDown(err);
    }
    try {
      return await leaseDue(this.db, now, this.nodeId, this.fallbackLeaseMs, limit);
    } catch (err) {
      this.logger.error({ err }, 'timer fallback claim from PostgreSQL failed');
      return [];
    }
  }

  /** Keeps the routes of entries going into the index (those whose adder knew them). */
  private remember(entries: readonly RoutedTimerEntry[]): void {
    if (this.routes.size + entries.length > MAX_ROUTES) this.routes.clear();
    for (const e of entries) if (e.kind !== undefined) this.routes.set(e.id, { kind: e.kind, orderId: e.orderId ?? null, dueAt: e.dueAt });
  }

  private launch(id: string): void {
    if (this.inflight.has(id)) return;
    const route = this.routes.get(id);
    this.routes.delete(id);
    const run = (async () => {
      try {
        await this.fire(id, route);
      } catch (err) {
        // The row stays pending, so the next sweep re-adds it and it is retried.
        this.logger.error({ err, timerId: id }, 'timer fire failed');
      } finally {
        this.inflight.delete(id);
        if (this.backlog) this.kick();
      }
    })();
    this.inflight.set(id, run);
  }

  private noteIndexDown(err: unknown): void {
    if (this.indexDown) return;
    this.indexDown = true;
    this.logger.warn(
      { err, index: this.index.kind },
      'timer index unavailable: leasing due timers from PostgreSQL until it is back',
    );
  }

  private noteIndexUp(): void {
    if (!this.indexDown) return;
    this.indexDown = false;
    this.logger.info({ index: this.index.kind }, 'timer index available again: re-seeding from PostgreSQL');
    // Adds may have failed while it was down, and a restarted Redis may have lost the set.
    if (this.running) this.sweep().catch((err: unknown) => this.logger.error({ err }, 'timer re-seed failed'));
  }
}
