// The background worker that keeps the flow stats: it reads the timeline chunks written since its cursor and folds their orders in.
//
// Nothing here runs on an order's transaction: slices write their node records and timeline as always, and this
// worker, woken after commits (and every few seconds), reads what they wrote. A pass:
// 1. locks the cursor row (one node aggregates at a time; the others skip the pass);
// 2. reads the ids and orders of the chunks in (high, high + SPAN] and of the gaps it still waits for, through
//    the BRIN index on the chunk id (a gap is an id handed out but not visible: a slice still committing, or one
//    rolled back; it is waited for GAP_GRACE_MS, then given up);
// 3. reads those orders with their chunks after the last one counted, and folds each (flow-stats-fold.ts);
// 4. writes the counts, what was counted of each order and the cursor (the id below the oldest open gap) in one
//    statement, and commits.
// A crash before the commit leaves everything as it was; after a restart the pass reads again from the cursor,
// and folding an order whose state was counted already adds nothing: exactly once in effect.
import type { Queryable } from '../db/db.js';
import type { FlowRegistry } from '../engine/flows/flow-registry.js';
import type { NodeKind } from '../engine/node-type.js';
import { toNodeRecords } from '../engine/runtime/node-record.js';
import { CoalescedRounds } from '../lib/coalesced-rounds.js';
import type { Clock } from '../platform/clock.js';
import { edgeKeyOf, edgeOf, foldOrder, type StatsGraph } from './flow-stats-fold.js';
import { addToBuckets } from './flow-stats-histogram.js';
import { chunksSince, lastChunkId, lockCursor, ordersToFold, writePass, type NodeRow, type OrderToFold, type PassWrite } from './flow-stats-store.js';

/** Chunk ids a pass reads at most. */
const SPAN = 2_000;
/** How long a missing chunk id is waited for before it is taken for a rolled-back slice's. */
export const GAP_GRACE_MS = 30_000;
/** Gaps remembered at most (the oldest are given up first). */
const MAX_GAPS = 10_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** Finished runs a pass counted, for the step-duration histogram (`/metrics`). */
export interface CountedDurations {
  flowId: string;
  nodeType: string;
  durations: number[];
}

/** Where a pass runs: a transaction (the service's `Db`; tests wrap it to fail a pass half way). */
export interface StatsDb {
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
}

export interface FlowStatsWorkerOptions {
  db: StatsDb;
  clock: Clock;
  flows: FlowRegistry;
  /** Told the durations each pass counted, after its commit. */
  onCounted?(counted: CountedDurations[]): void;
  onError(err: unknown): void;
  /** Safety poll (ms) for commits of other nodes and missed wake-ups; default 2000. */
  pollMs?: number;
  /** How long a wake-up waits so the commits made meanwhile share a pass (under load at most a pass a second); default 1000. */
  coalesceMs?: number;
  /** Wall time, for the gap grace (not the service clock, which tests move). */
  monotonic?: () => number;
}

interface FlowFacts {
  graph: StatsGraph;
  types: Map<string, string>;
}

export class FlowStatsWorker {
  private readonly rounds: CoalescedRounds;
  /** The highest chunk id read; the durable cursor may be lower (below a gap). */
  private high = -1;
  /** Chunk ids not visible yet, with when they were first missed. */
  private readonly gaps = new Map<number, number>();
  private readonly facts = new Map<string, FlowFacts>();
  /** Passes of this process, one at a time (they share `high` and `gaps`). */
  private serial: Promise<unknown> = Promise.resolve();
  private readonly monotonic: () => number;
  /** Orders folded so far (the bench reads it). */
  folded = 0;

  constructor(private readonly o: FlowStatsWorkerOptions) {
    this.monotonic = o.monotonic ?? (() => performance.now());
    this.rounds = new CoalescedRounds({
      round: async () => {
        // A pass that read a full span leaves more behind: run the next at once.
        while (this.rounds.started && (await this.pass(false)).more);
      },
      onError: (err) => o.onError(err),
      pollMs: o.pollMs ?? 2_000,
      coalesceMs: o.coalesceMs ?? 1_000,
    });
  }

  start(): void {
    this.rounds.start();
  }

  /** Stops waking and waits for the pass under way (service stop: the pool closes after). */
  async stop(): Promise<void> {
    await this.rounds.stop();
    await this.serial.catch(() => undefined);
  }

  /** Asks for a pass soon (after a commit). */
  wake(): void {
    this.rounds.wake();
  }

  /** Runs passes until everything written so far is counted (the test clock's advance, the bench), waiting for another node's pass. */
  async catchUp(): Promise<void> {
    for (let i = 0; i < 100_000; i++) if (!(await this.pass(true)).more) return;
  }

  /** One pass; `more` when chunks beyond it were already written. */
  pass(wait: boolean): Promise<{ more: boolean; orders: number }> {
    const run = this.serial.then(() => this.runPass(wait));
    this.serial = run.catch(() => undefined);
    return run;
  }

  private async runPass(wait: boolean): Promise<{ more: boolean; orders: number }> {
    const counted: CountedDurations[] = [];
    const result = await this.o.db.tx(async (tx) => {
      const durable = await lockCursor(tx, wait);
      if (durable === null) return { more: false, orders: 0, high: this.high, gaps: null };
      // Another node may have moved the cursor past what this one read: start from it.
      let high = Math.max(this.high, durable);
      const gaps = new Map([...this.gaps].filter(([id]) => id > durable));
      if (this.high < durable) gaps.clear();
      const last = await lastChunkId(tx);
      const upto = Math.max(high, Math.min(last, high + SPAN));
      const rows = await chunksSince(tx, high, upto, [...gaps.keys()]);
      const seen = new Set(rows.map((r) => r.id));
      const at = this.monotonic();
      for (const id of gaps.keys()) if (seen.has(id) || at - gaps.get(id)! > GAP_GRACE_MS) gaps.delete(id);
      for (let id = high + 1; id <= upto; id++) if (!seen.has(id)) gaps.set(id, at);
      while (gaps.size > MAX_GAPS) gaps.delete(Math.min(...gaps.keys()));
      high = upto;
      const orderIds = [...new Set(rows.map((r) => r.orderId))];
      const orders = orderIds.length ? await ordersToFold(tx, orderIds) : [];
      const write = await this.fold(tx, orders, counted);
      const cursor = gaps.size ? Math.min(...gaps.keys()) - 1 : high;
      if (orders.length || cursor !== durable) await writePass(tx, { ...write, cursor, now: this.o.clock.now() });
      return { more: upto < last, orders: orders.length, high, gaps };
    });
    if (result.gaps) {
      this.high = result.high;
      this.gaps.clear();
      for (const [id, first] of result.gaps) this.gaps.set(id, first);
    }
    this.folded += result.orders;
    if (counted.length) this.o.onCounted?.(counted);
    return { more: result.more, orders: result.orders };
  }

  /** The flow facts of a published version (cached: versions never change). */
  private async factsOf(q: Queryable, flowId: string, version: number): Promise<FlowFacts> {
    const key = `${flowId}@${version}`;
    const hit = this.facts.get(key);
    if (hit) return hit;
    const { compiled } = await this.o.flows.load(q, flowId, version);
    const kinds = new Map<string, NodeKind>();
    const types = new Map<string, string>();
    const failureBranches = new Map<string, string>();
    const targets = new Map<string, string>();
    for (const [id, n] of compiled.nodes) {
      kinds.set(id, n.def.kind);
      types.set(id, n.def.type);
      if (n.def.failureBranch !== undefined && n.wired.includes(n.def.failureBranch)) failureBranches.set(id, n.def.failureBranch);
    }
    for (const e of compiled.edges) if (!targets.has(edgeOf(e.from, e.branch))) targets.set(edgeOf(e.from, e.branch), e.to);
    const facts = { graph: { kinds, failureBranches, targets }, types };
    this.facts.set(key, facts);
    return facts;
  }

  /** Folds each order and sums what they add, by flow, version, hour (of order creation) and node. */
  private async fold(q: Queryable, orders: OrderToFold[], counted: CountedDurations[]): Promise<Omit<PassWrite, 'cursor' | 'now'>> {
    const write: Omit<PassWrite, 'cursor' | 'now'> = { orders: [], nodes: [], days: [], edges: [], statuses: [], current: [], active: [] };
    const nodes = new Map<string, NodeRow>();
    const days = new Map<string, NodeRow>();
    const edges = new Map<string, PassWrite['edges'][number]>();
    const statuses = new Map<string, PassWrite['statuses'][number]>();
    const current = new Map<string, PassWrite['current'][number]>();
    const active = new Map<string, PassWrite['active'][number]>();
    const durations = new Map<string, CountedDurations>();
    /** An order's status counted (+1) or uncounted (-1) for a version: by hour of creation and now. */
    const countStatus = (flowId: string, version: number, hour: number, status: string, by: number) => {
      const base = { flow_id: flowId, flow_version: version };
      const hk = `${flowId}\u0000${version}\u0000${hour}\u0000${status}`;
      const h = statuses.get(hk) ?? { ...base, hour, status, orders: 0 };
      h.orders += by;
      statuses.set(hk, h);
      const ck = `${flowId}\u0000${version}\u0000${status}`;
      const c = current.get(ck) ?? { ...base, status, orders: 0 };
      c.orders += by;
      current.set(ck, c);
    };
    /** A node of a version counted active (+1) or no longer (-1). */
    const countActive = (flowId: string, version: number, nodeId: string, by: number) => {
      const ak = `${flowId}\u0000${version}\u0000${nodeId}`;
      const a = active.get(ak) ?? { flow_id: flowId, flow_version: version, node_id: nodeId, active: 0 };
      a.active += by;
      active.set(ak, a);
    };
    for (const order of orders) {
      let facts: FlowFacts;
      try {
        facts = await this.factsOf(q, order.flowId, order.flowVersion);
      } catch {
        continue; // a version that does not compile has no stats; its orders are skipped
      }
      const hour = hourOf(order.createdAt);
      const entries = order.entries.map((e) => ({ at: Number(e.at), kind: e.kind, message: e.message, nodeId: e.nodeId ?? null, data: e.data ?? null }));
      const base = { flow_id: order.flowId, flow_version: order.flowVersion };
      // Moved to another version since it was last counted (contract 15): it leaves the old version's current counts
      // (its status, its active nodes) and joins the new one's as if new there; runs already counted stay with the
      // version they ran under.
      const moved = order.seen !== null && order.seen.flowVersion !== order.flowVersion ? order.seen : null;
      const seen = moved ? { ...moved, nodes: Object.fromEntries(Object.entries(moved.nodes).map(([id, { a: _active, ...rest }]) => [id, rest])) } : order.seen;
      const r = foldOrder(facts.graph, seen, { status: order.status, generation: order.generation, records: toNodeRecords(order.nodes) }, entries);
      if (moved) {
        countStatus(order.flowId, moved.flowVersion, hour, moved.status, -1);
        for (const [nodeId, n] of Object.entries(moved.nodes)) if (n.a) countActive(order.flowId, moved.flowVersion, nodeId, -1);
        r.status = { from: null, to: order.status };
      }
      write.orders.push({ order_id: order.id, ...base, hour, status: order.status, generation: order.generation, last_chunk: order.lastChunk, nodes: r.seen.nodes });
      for (const [nodeId, d] of r.nodes) {
        // The hour's row and the day's (a long range reads days).
        for (const [rows, at] of [[nodes, hour], [days, dayOf(hour)]] as const) {
          const key = `${order.flowId}\u0000${order.flowVersion}\u0000${at}\u0000${nodeId}`;
          let row = rows.get(key);
          if (!row) rows.set(key, (row = { ...base, hour: at, node_id: nodeId, runs: 0, succeeded: 0, failed: 0, max_ms: null, samples: [], buckets: {} }));
          row.runs += d.runs;
          row.succeeded += d.succeeded;
          row.failed += d.failed;
          for (const ms of d.durations) row.max_ms = row.max_ms === null ? ms : Math.max(row.max_ms, ms);
          row.samples.push(...d.durations);
          addToBuckets(row.buckets, d.durations);
        }
        if (d.durations.length) {
          const type = facts.types.get(nodeId) ?? 'unknown';
          const dk = `${order.flowId}\u0000${type}`;
          let c = durations.get(dk);
          if (!c) durations.set(dk, (c = { flowId: order.flowId, nodeType: type, durations: [] }));
          c.durations.push(...d.durations);
        }
      }
      for (const [key, n] of r.edges) {
        const [from, to, branch] = key.split('\u0000');
        const k = `${order.flowId}\u0000${order.flowVersion}\u0000${hour}\u0000${edgeKeyOf(from, to, branch)}`;
        const row = edges.get(k) ?? { ...base, hour, from_node: from, to_node: to, branch, taken: 0 };
        row.taken += n;
        edges.set(k, row);
      }
      if (r.status) {
        if (r.status.from !== null) countStatus(order.flowId, order.flowVersion, hour, r.status.from, -1);
        countStatus(order.flowId, order.flowVersion, hour, r.status.to, 1);
      }
      for (const [nodeId, by] of r.active) countActive(order.flowId, order.flowVersion, nodeId, by);
    }
    write.nodes = [...nodes.values()];
    write.days = [...days.values()];
    write.edges = [...edges.values()];
    write.statuses = [...statuses.values()].filter((s) => s.orders !== 0);
    write.current = [...current.values()].filter((s) => s.orders !== 0);
    write.active = [...active.values()].filter((a) => a.active !== 0);
    counted.push(...durations.values());
    return write;
  }
}
