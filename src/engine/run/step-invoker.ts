// Runs node bodies (run, answer, undo, abandon) with their ports over the slice's store: the one place that knows savepoints.
//
// Steps run without a SAVEPOINT (one transaction id per slice). A step that throws before its ports
// wrote anything is simply a failure; one that wrote (or had a statement fail) can only be taken back
// by a rollback, so the command is rerun with a SAVEPOINT around every step (StepSavepointNeeded) and
// a failing step still leaves no partial writes. Undo and abandon bodies always get their own
// savepoint. A stale prepared statement is the connection's fault, not the body's: it aborts the
// command (StalePreparedPlan).
import type { PoolClient } from 'pg';
import type { CompiledFlow } from '../compiler.js';
import type { StepContext } from '../node-type.js';
import type { StepPorts, StepPortsFactory } from '../step-store.js';
import type { Clock } from '../../platform/clock.js';
import type { CachedRead } from '../../db/transaction-read-cache.js';
import type { ReferenceCache, ReferenceVersion } from '../../db/reference-cache.js';
import { withSpan } from '../../telemetry/spans.js';
import { SliceStore } from '../runtime/slice-store.js';
import { StalePreparedPlan } from '../runtime/stale-prepared-plan.js';
import { StepSavepointNeeded } from '../runtime/step-savepoint-needed.js';
import { sendJoined, type NamedStatement } from '../runtime/named-statements.js';
import type { RunState } from './run-state.js';
import type { SliceFacts } from './slice-facts.js';
import { stepView } from './step-view.js';
import type { BodyPhase, Invocation } from './perform-effect.js';

export interface InvokerDeps {
  clock: Clock;
  /** Builds the ports steps receive over the slice's store (the host's plug-ins). */
  ports: StepPortsFactory;
  /**
   * Run each step inside its own SAVEPOINT. Off (the fast path), a step that throws aborts the
   * slice with StepSavepointNeeded and the command reruns with this on.
   */
  stepSavepoints?: boolean;
  /** The runtime's reference cache: steps read settings, products and sellers through it at the version the slice read. */
  referenceCache?: ReferenceCache;
}

export class StepInvoker {
  /** Statements sent on the slice's transaction (steps', savepoints, and the host's own): for the metrics. */
  statements = 0;
  /** The run store the slice lends its steps' ports (slice-store.ts): reader, writer, read cache, reference data. */
  private readonly store: SliceStore;
  /** The steps' ports, built over the store when the first body needs them. */
  private ports: StepPorts | null = null;

  constructor(
    private readonly tx: PoolClient,
    private readonly flow: CompiledFlow,
    private readonly deps: InvokerDeps,
    referenceVersion: ReferenceVersion | null,
    seeds: readonly CachedRead[],
    /** The order's facts as the slice holds them: the ports change them, a body that throws leaves them as they were. */
    private readonly facts: SliceFacts,
  ) {
    this.store = new SliceStore(tx, () => void (this.statements += 1), facts);
    if (deps.referenceCache && referenceVersion) this.store.cache.reference = { cache: deps.referenceCache, version: referenceVersion };
    for (const read of seeds) this.store.cache.seed(read);
  }

  /** A statement of the host's own on the slice's transaction, counted. */
  sql(statement: string | { name: string; text: string; values: unknown[] }): Promise<unknown> {
    this.statements += 1;
    return typeof statement === 'string' ? this.tx.query(statement) : this.tx.query(statement);
  }

  /** The slice's write and the transaction's COMMIT, in one round trip once the connection prepared the write (counted as one statement). */
  async writeAndCommit(statement: NamedStatement): Promise<void> {
    this.statements += 1;
    // If the write fails, the transaction is aborted and the COMMIT after it does not run; the caller rolls back.
    await sendJoined(this.tx, { statement, after: ['COMMIT'] });
  }

  /** What a body of `nodeId` receives, from the run state as decide left it. */
  context(state: RunState, nodeId: string, attempt: number): StepContext<unknown> {
    return { ...stepView(this.flow, state, nodeId, attempt), ports: (this.ports ??= this.deps.ports(this.store)), clock: this.deps.clock };
  }

  /** Runs one body of `nodeId` under the savepoint rules of its phase; what it threw leaves the order's facts as before it. */
  async invoke<T>(state: RunState, nodeId: string, attempt: number, phase: BodyPhase, body: (ctx: StepContext<unknown>) => Promise<T> | T): Promise<Invocation<T>> {
    const mark = this.facts.mark();
    const out = await this.invokeBody(state, nodeId, attempt, phase, body);
    if ('threw' in out) this.facts.restore(mark);
    return out;
  }

  private async invokeBody<T>(state: RunState, nodeId: string, attempt: number, phase: BodyPhase, body: (ctx: StepContext<unknown>) => Promise<T> | T): Promise<Invocation<T>> {
    const ctx = this.context(state, nodeId, attempt);
    if (phase === 'undo' || phase === 'abandon') return this.inSavepoint(phase, () => body(ctx));
    const type = this.flow.nodes.get(nodeId)?.def.type ?? nodeId;
    // A span per step when tracing is on (its SQL spans nest under it); a plain call otherwise.
    const run = () => withSpan(`step ${type}`, { 'order.id': state.order.id, 'node.id': nodeId, 'step.attempt': attempt }, async () => body(ctx));
    if (this.deps.stepSavepoints) return this.inSavepoint('step', run);
    this.store.watchStep();
    try {
      return { ok: await run() };
    } catch (err) {
      if (err instanceof StalePreparedPlan) throw err;
      // Its ports wrote (or a statement failed): only a rerun with savepoints takes that back. Otherwise nothing to undo.
      if (this.store.stepTouched) throw new StepSavepointNeeded(nodeId, err);
      return { threw: err };
    }
  }

  private async inSavepoint<T>(name: 'step' | 'undo' | 'abandon', body: () => Promise<T> | T): Promise<Invocation<T>> {
    await this.sql(`SAVEPOINT ${name}`);
    try {
      const ok = await body();
      await this.sql(`RELEASE SAVEPOINT ${name}`);
      return { ok };
    } catch (err) {
      await this.sql(`ROLLBACK TO SAVEPOINT ${name}`);
      this.store.cache.clear();
      if (err instanceof StalePreparedPlan) throw err;
      return { threw: err };
    }
  }
}
