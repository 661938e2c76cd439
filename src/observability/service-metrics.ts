// The service's Prometheus metrics (prom-client): one registry per service, counters fed by engine probes and HTTP.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Pool } from 'pg';
import type { Queryable } from '../db/db.js';
import type { DeliveryObservation, SliceObservation, TimerObservation } from '../engine/engine-probe.js';
import { isFinished } from '../engine/runtime/run-row.js';
import { BATCH_STATES } from '../batches/batch-view.js';
import type { CountedDurations } from '../orders/flow-stats-worker.js';

/** Every metric name starts with this (Prometheus naming: a namespace, then the unit as a suffix). */
export const METRIC_PREFIX = 'orders_service_';
const p = (name: string) => `${METRIC_PREFIX}${name}`;

/** Seconds buckets for commands and requests: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What a scrape reads from PostgreSQL (one statement, through indexes): backlogs that no counter can hold. */
const BACKLOG_SQL = `SELECT
  (SELECT coalesce(json_object_agg(kind, n), '{}'::json) FROM (SELECT kind, count(*)::int AS n FROM order_waits WHERE status = 'open' GROUP BY kind) w) AS waits,
  (SELECT coalesce(json_agg(json_build_object('kind', kind, 'pending', pending, 'due', due)), '[]'::json) FROM (
     SELECT kind, count(*)::int AS pending, count(*) FILTER (WHERE due_at <= $1)::int AS due
       FROM timers WHERE fired_at IS NULL AND cancelled_at IS NULL GROUP BY kind) t) AS timers,
  (SELECT count(*)::int FROM outbox WHERE dispatched_at IS NULL) AS outbox,
  (SELECT count(DISTINCT order_id)::int FROM order_holds WHERE status = 'open') AS held,
  (SELECT coalesce(json_object_agg(state, n), '{}'::json) FROM (SELECT state, count(*)::int AS n FROM batches GROUP BY state) b) AS batches,
  (SELECT coalesce(json_object_agg(flow_id, n), '{}'::json) FROM (
     SELECT flow_id, sum(orders)::int AS n FROM flow_stats_current WHERE status = 'waiting' GROUP BY flow_id) f) AS waiting`;

/** Seconds buckets for step durations: a millisecond to 30 days (steps take ms, waits days). */
const STEP_BUCKETS = [0.001, 0.01, 0.1, 1, 10, 60, 600, 3_600, 21_600, 86_400, 604_800, 2_592_000];
/** Distinct flows a metric labels by name; the rest share `other` (bounded label sets: flows are created at will). */
export const MAX_FLOW_LABELS = 50;
/** Node types a metric labels by name (the catalogue is bounded, but a deployment may hand in its own). */
const MAX_TYPE_LABELS = 100;

/** A label value from an open set, by first come: the first `max` values keep their name, later ones are `other`. */
class BoundedLabels {
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}
  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return 'other';
    this.seen.add(value);
    return value;
  }
}

export interface MetricSources {
  /** The service's pool (connections in use, idle, waited for). */
  pool: Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  /** Orders with a command queued or running in this process. */
  liveOrders(): number;
  /** Where the scrape-time backlog query runs, and the service clock's now (timers due). */
  db: Queryable;
  now(): number;
}

/**
 * The metrics of one service instance. Counters move on engine events (no SQL on the command
 * path); gauges of backlogs (waits open, timers due, outbox, held orders) are read by one statement per scrape.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly ordersStarted: Counter<'flow'>;
  private readonly ordersEnded: Counter<'flow' | 'status'>;
  private readonly ordersTransitions: Counter<'flow' | 'to'>;
  private readonly sliceSeconds: Histogram<'command'>;
  private readonly sliceStatements: Histogram<'command'>;
  private readonly sliceRetries: Counter<'command'>;
  private readonly timersFired: Counter<'kind'>;
  private readonly timerLateSeconds: Histogram<'kind'>;
  private readonly timerClaimConflicts: Counter;
  private readonly webhookAttempts: Counter<'outcome'>;
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly waitsOpen: Gauge<'kind'>;
  private readonly timersPending: Gauge<'kind'>;
  private readonly timersDue: Gauge<'kind'>;
  private readonly outboxBacklog: Gauge;
  private readonly ordersHeld: Gauge;
  private readonly batches: Gauge<'state'>;
  private readonly backlogErrors: Counter;
  private readonly stepSeconds: Histogram<'flow' | 'node_type'>;
  private readonly ordersWaiting: Gauge<'flow'>;
  private readonly flowLabels = new BoundedLabels(MAX_FLOW_LABELS);
  private readonly typeLabels = new BoundedLabels(MAX_TYPE_LABELS);

  constructor(private readonly sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    this.ordersStarted = new Counter({ name: p('orders_started_total'), help: 'Orders whose first slice committed on this node, by flow', labelNames: ['flow'], registers });
    this.ordersEnded = new Counter({
      name: p('orders_ended_total'),
      help: 'Orders that reached a final status on this node (completed, declined, cancelled, failed, rolled_back), by flow',
      labelNames: ['flow', 'status'],
      registers,
    });
    this.ordersTransitions = new Counter({
      name: p('order_status_changes_total'),
      help: 'Committed status changes of orders on this node, by flow and new status',
      labelNames: ['flow', 'to'],
      registers,
    });
    this.sliceSeconds = new Histogram({
      name: p('run_slice_duration_seconds'),
      help: 'Wall time of a committed command on an order (lock, slice, write, commit), by command',
      labelNames: ['command'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.sliceStatements = new Histogram({
      name: p('run_slice_statements'),
      help: 'Statements a committed command sent (lock, steps, savepoints, write, commit), by command',
      labelNames: ['command'],
      buckets: [3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128],
      registers,
    });
    this.sliceRetries = new Counter({
      name: p('run_slice_reruns_total'),
      help: 'Extra attempts of committed commands (on a fresh connection after a stale prepared statement)',
      labelNames: ['command'],
      registers,
    });
    this.timersFired = new Counter({ name: p('timers_fired_total'), help: 'Due timers handed to their handler on this node, by kind', labelNames: ['kind'], registers });
    this.timerLateSeconds = new Histogram({
      name: p('timer_lateness_seconds'),
      help: 'How late a timer was when this node handed it to its handler (service clock minus due time), by kind',
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.timerClaimConflicts = new Counter({
      name: p('scheduler_claim_conflicts_total'),
      help: 'Timers this node took from the index that were already fired or cancelled (claimed by another node, or a sweep re-adding them)',
      registers,
    });
    this.webhookAttempts = new Counter({
      name: p('webhook_attempts_total'),
      help: 'Recorded webhook delivery attempts by outcome: delivered (2xx), retry (failed, retry scheduled), failed (last attempt failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: p('http_request_duration_seconds'),
      help: 'HTTP requests by method, route template (unmatched for none) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.waitsOpen = new Gauge({ name: p('waits_open'), help: 'Open waits of all orders (every node), by kind: approval, event, delay', labelNames: ['kind'], registers });
    this.timersPending = new Gauge({ name: p('timers_pending'), help: 'Timers not yet fired nor cancelled (every node), by kind', labelNames: ['kind'], registers });
    this.timersDue = new Gauge({ name: p('timers_due'), help: 'Pending timers whose due time has passed (late if this stays above 0), by kind', labelNames: ['kind'], registers });
    this.outboxBacklog = new Gauge({ name: p('outbox_backlog'), help: 'Committed order events not yet handed to their sinks (every node)', registers });
    this.ordersHeld = new Gauge({ name: p('orders_held'), help: 'Orders with a held step waiting for a retry or a rollback (contract 16; every node)', registers });
    this.batches = new Gauge({ name: p('batches'), help: 'Batches (contract 16) of every node, by state: running, paused, completed, cancelled', labelNames: ['state'], registers });
    this.stepSeconds = new Histogram({
      name: p('step_duration_seconds'),
      help: `Finished runs of flow nodes (a step's run, a wait's time waited), by flow (the first ${MAX_FLOW_LABELS}, then other) and node type, as the flow stats worker counts them (on the node running it)`,
      labelNames: ['flow', 'node_type'],
      buckets: STEP_BUCKETS,
      registers,
    });
    this.ordersWaiting = new Gauge({
      name: p('orders_waiting'),
      help: `Orders waiting (an approval, an event, a delay) by flow (the first ${MAX_FLOW_LABELS}, then other), as the flow stats worker last counted them (every node)`,
      labelNames: ['flow'],
      registers,
    });
    this.backlogErrors = new Counter({ name: p('metrics_backlog_errors_total'), help: 'Scrapes whose backlog query failed (the gauges keep their last values)', registers });
    new Gauge({
      name: p('db_pool_connections'),
      help: 'Connections of this node pool by state: total, idle, in_use, and waiting (requests queued for one)',
      labelNames: ['state'],
      registers,
      collect() {
        const { pool } = sources;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: p('orders_in_process'),
      help: 'Orders with a command queued or running on this node (no actor lives in memory between commands)',
      registers,
      collect() {
        this.set(sources.liveOrders());
      },
    });
  }

  /** A committed slice: status changes, starts and ends by flow, duration and statements by command. */
  observeSlice(s: SliceObservation): void {
    if (s.command === 'start') this.ordersStarted.inc({ flow: s.flowId });
    if (s.from !== s.to) {
      this.ordersTransitions.inc({ flow: s.flowId, to: s.to });
      if (isFinished(s.to)) this.ordersEnded.inc({ flow: s.flowId, status: s.to });
    }
    this.sliceSeconds.observe({ command: s.command }, s.ms / 1000);
    this.sliceStatements.observe({ command: s.command }, s.statements);
    if (s.attempts > 1) this.sliceRetries.inc({ command: s.command }, s.attempts - 1);
  }

  observeTimer(t: TimerObservation): void {
    if (t.outcome === 'gone') {
      this.timerClaimConflicts.inc();
      return;
    }
    this.timersFired.inc({ kind: t.kind });
    this.timerLateSeconds.observe({ kind: t.kind }, t.lateMs / 1000);
  }

  observeDelivery(d: DeliveryObservation): void {
    this.webhookAttempts.inc({ outcome: d.outcome });
  }

  /** Durations the flow stats worker counted (ms). */
  observeStepDurations(counted: CountedDurations[]): void {
    for (const c of counted) {
      const labels = { flow: this.flowLabels.of(c.flowId), node_type: this.typeLabels.of(c.nodeType) };
      for (const ms of c.durations) this.stepSeconds.observe(labels, ms / 1000);
    }
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpSeconds.observe({ method, route, status: String(status) }, seconds);
  }

  /** The Prometheus text exposition, after reading the backlogs (a failing read keeps the last values). */
  async exposition(): Promise<string> {
    try {
      const { rows } = await this.sources.db.query<{
        waits: Record<string, number>;
        timers: { kind: string; pending: number; due: number }[];
        outbox: number;
        held: number;
        batches: Record<string, number>;
        waiting: Record<string, number>;
      }>(BACKLOG_SQL, [this.sources.now()]);
      const { waits, timers, outbox, held, batches, waiting } = rows[0];
      this.waitsOpen.reset();
      for (const kind of ['approval', 'event', 'delay']) this.waitsOpen.set({ kind }, 0);
      for (const [kind, n] of Object.entries(waits)) this.waitsOpen.set({ kind }, n);
      this.timersPending.reset();
      this.timersDue.reset();
      for (const t of timers) {
        this.timersPending.set({ kind: t.kind }, t.pending);
        this.timersDue.set({ kind: t.kind }, t.due);
      }
      this.outboxBacklog.set(outbox);
      this.ordersHeld.set(held);
      // Every state is reported, 0 when no batch is in it.
      for (const state of BATCH_STATES) this.batches.set({ state }, batches[state] ?? 0);
      this.ordersWaiting.reset();
      const byLabel = new Map<string, number>();
      for (const [flow, n] of Object.entries(waiting)) {
        const label = this.flowLabels.of(flow);
        byLabel.set(label, (byLabel.get(label) ?? 0) + Math.max(0, n));
      }
      for (const [flow, n] of byLabel) this.ordersWaiting.set({ flow }, n);
    } catch {
      this.backlogErrors.inc();
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
