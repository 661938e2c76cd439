// Moving live orders to a new flow version (runtime contract 15): the request checked, which orders can move and why not, one order moved.
//
// A request names a flow, the version its orders are pinned to, the target (default the latest
// published) and a mapping of node ids. Checking reads each candidate's run as it stands (no lock)
// and asks the engine's pure moveRun; moving one order takes its lock and asks again
// (OrderRuntime.move), so an order that changed meanwhile is refused with the reason it has now.
import type { Db, Queryable } from '../db/db.js';
import type { Engine } from '../engine/engine-module.js';
import type { CompiledFlow } from '../engine/compiler.js';
import { moveRun, type MoveTarget, type PendingTimer } from '../engine/migration/move-run.js';
import { toNodeRecords, type StoredNodeRecord } from '../engine/runtime/node-record.js';
import { toOrderRow, type OrderDbRow } from '../engine/runtime/order-row.js';
import { toWait, type WaitDbRow } from '../engine/runtime/waits.js';
import { toHold, type HoldDbRow } from '../engine/runtime/holds.js';
import type { MoveOutcome } from '../engine/runtime/order-runtime.js';
import { notFound, ValidationError } from '../domain/errors.js';

/** Contract 15: the dry run's lists are cut at this many ids. */
export const MIGRATION_LISTED = 1_000;
/** At most this many candidates (the batches' filter cap, contract 16): past it a request is a 400. */
export const MIGRATION_CANDIDATES_MAX = 100_000;
/** Candidates checked per read. */
const PAGE = 500;

export interface MigrationRequest {
  flowId: string;
  fromVersion: number;
  toVersion?: number;
  mapping?: Record<string, string>;
}

/** A request checked against the flow: both versions published, every mapped node in its version. */
export interface MigrationPlan {
  flowId: string;
  fromVersion: number;
  toVersion: number;
  mapping: Record<string, string>;
  from: CompiledFlow;
  to: CompiledFlow;
}

export interface MigrationCheck {
  movable: string[];
  refused: { orderId: string; reason: string }[];
}

export interface FlowMigrationDeps {
  db: Db;
  clock: { now(): number };
  engine: Pick<Engine, 'flows' | 'registry' | 'runtime'>;
}

/** An order row with its open waits, holds and pending timers, as one read returns it. */
type CandidateDbRow = OrderDbRow & {
  nodes: Record<string, StoredNodeRecord> | null;
  waits: WaitDbRow[];
  holds: HoldDbRow[];
  timers: { id: string; kind: string; node_id: string | null; run: number | null; due_at: number }[];
};

const CANDIDATES_SQL = `SELECT o.*,
    (SELECT coalesce(json_agg(w ORDER BY w.since, w.node_id), '[]') FROM order_waits w WHERE w.order_id = o.id AND w.status = 'open') AS waits,
    (SELECT coalesce(json_agg(h ORDER BY h.since, h.node_id), '[]') FROM order_holds h WHERE h.order_id = o.id AND h.status = 'open') AS holds,
    (SELECT coalesce(json_agg(json_build_object('id', t.id, 'kind', t.kind, 'node_id', t.node_id, 'run', t.run, 'due_at', t.due_at)), '[]')
       FROM timers t WHERE t.order_id = o.id AND t.fired_at IS NULL AND t.cancelled_at IS NULL) AS timers
  FROM orders o WHERE o.id = ANY($1::text[])`;

export class FlowMigrations {
  constructor(private readonly deps: FlowMigrationDeps) {}

  /**
   * The request checked: 404 for an unknown flow; 400 (issues naming the field) for a version that is
   * not a published version of this flow, a target equal to the source, or a mapping naming a node
   * its version does not have.
   */
  async plan(req: MigrationRequest): Promise<MigrationPlan> {
    const { db, engine } = this.deps;
    const flow = await engine.flows.get(db, req.flowId);
    if (!flow) throw notFound('Flow');
    const toVersion = req.toVersion ?? flow.publishedVersion;
    const unpublished = (field: string, version: number) =>
      new ValidationError([{ path: field, message: `Flow ${req.flowId} has no published version ${version}` }], `Flow ${req.flowId} has no published version ${version}`);
    if (!(await engine.flows.version(db, req.flowId, req.fromVersion))) throw unpublished('fromVersion', req.fromVersion);
    if (toVersion === null || !(await engine.flows.version(db, req.flowId, toVersion))) throw unpublished('toVersion', toVersion ?? 1);
    if (toVersion === req.fromVersion)
      throw new ValidationError([{ path: 'toVersion', message: `is fromVersion (${toVersion}): nothing would move` }], 'toVersion is fromVersion: nothing would move');
    const from = (await engine.registry.load(db, req.flowId, req.fromVersion)).compiled;
    const to = (await engine.registry.load(db, req.flowId, toVersion)).compiled;
    const mapping = req.mapping ?? {};
    const issues = Object.entries(mapping).flatMap(([oldId, newId]) => [
      ...(from.nodes.has(oldId) ? [] : [{ path: `mapping.${oldId}`, message: `Version ${req.fromVersion} has no node "${oldId}"` }]),
      ...(to.nodes.has(newId) ? [] : [{ path: `mapping.${oldId}`, message: `Version ${toVersion} has no node "${newId}"` }]),
    ]);
    if (issues.length) throw new ValidationError(issues, 'The mapping names nodes the versions do not have');
    return { flowId: req.flowId, fromVersion: req.fromVersion, toVersion, mapping, from, to };
  }

  /**
   * Which orders can move now and why the others cannot: the listed ones, or every unfinished order
   * pinned to the source version (400 past MIGRATION_CANDIDATES_MAX). Reads only.
   */
  async check(plan: MigrationPlan, orderIds?: readonly string[]): Promise<MigrationCheck> {
    const { db, clock } = this.deps;
    const ids = orderIds ? [...new Set(orderIds)] : await this.candidates(db, plan);
    const target: MoveTarget = { ...plan };
    const out: MigrationCheck = { movable: [], refused: [] };
    const now = clock.now();
    for (let i = 0; i < ids.length; i += PAGE) {
      const page = ids.slice(i, i + PAGE);
      const { rows } = await db.query<CandidateDbRow>(CANDIDATES_SQL, [page]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of page) {
        const row = byId.get(id);
        if (!row) {
          out.refused.push({ orderId: id, reason: 'Unknown order' });
          continue;
        }
        const timers: PendingTimer[] = row.timers.map((t) => ({ id: t.id, kind: t.kind, nodeId: t.node_id, run: t.run, dueAt: Number(t.due_at) }));
        const verdict = moveRun(
          target,
          { order: toOrderRow(row), nodes: toNodeRecords(row.nodes), waits: row.waits.map(toWait), holds: row.holds.map(toHold), timers },
          now,
        );
        if ('refused' in verdict) out.refused.push({ orderId: id, reason: verdict.refused });
        else out.movable.push(id);
      }
    }
    return out;
  }

  /** Moves one order under its lock (contract 15: alone, atomically). */
  moveOne(orderId: string, plan: Pick<MigrationPlan, 'flowId' | 'fromVersion' | 'toVersion' | 'mapping'>): Promise<MoveOutcome> {
    const { flowId, fromVersion, toVersion, mapping } = plan;
    return this.deps.engine.runtime.move(orderId, { flowId, fromVersion, toVersion, mapping });
  }

  /** The unfinished orders of the source version, oldest first (the partial index of live orders per version). */
  private async candidates(q: Queryable, plan: MigrationPlan): Promise<string[]> {
    const { rows } = await q.query<{ id: string }>(
      `SELECT id FROM orders WHERE flow_id = $1 AND flow_version = $2 AND status IN ('queued', 'running', 'waiting')
        ORDER BY created_at, id LIMIT $3`,
      [plan.flowId, plan.fromVersion, MIGRATION_CANDIDATES_MAX + 1],
    );
    if (rows.length > MIGRATION_CANDIDATES_MAX)
      throw new ValidationError(
        [{ path: 'fromVersion', message: `has more than ${MIGRATION_CANDIDATES_MAX.toLocaleString('en')} unfinished orders: list them in orderIds, a part at a time` }],
        `Version ${plan.fromVersion} has more than ${MIGRATION_CANDIDATES_MAX.toLocaleString('en')} unfinished orders`,
      );
    return rows.map((r) => r.id);
  }
}
