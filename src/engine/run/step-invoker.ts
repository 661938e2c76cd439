// Runs node bodies (run, answer, undo, abandon) in the slice's transaction: the one place that knows savepoints and the step client.
//
// Steps run without a SAVEPOINT (one transaction id per slice); when one throws, the command is
// rerun with a SAVEPOINT around every step (StepSavepointNeeded), so a failing step still leaves no
// partial writes. Undo and abandon bodies always get their own savepoint. A stale prepared
// statement is the connection's fault, not the body's: it aborts the command (StalePreparedPlan).
import type { PoolClient } from 'pg';
import type { CompiledFlow } from '../compiler.js';
import type { StepContext, StepServices } from '../node-type.js';
import type { Clock } from '../../platform/clock.js';
import { TransactionReadCache, type CachedRead } from '../../db/transaction-read-cache.js';
import type { ReferenceCache, ReferenceVersion } from '../../db/reference-cache.js';
import { withSpan } from '../../telemetry/spans.js';
import { stepClient } from '../runtime/step-client.js';
import { StalePreparedPlan } from '../runtime/stale-prepared-plan.js';
import { StepSavepointNeeded } from '../runtime/step-savepoint-needed.js';
import type { RunState } from './run-state.js';
import { stepView } from './step-view.js';

/** Which body: a step's `run`, its `answer` to a call, an undo (`compensate`/`cancel`), an `abandon`. */
export type BodyPhase = 'run' | 'answer' | 'undo' | 'abandon';

/** How a body ended: its value, or what it threw (a failure of the body, already rolled back to its savepoint). */
export type Invocation<T> = { ok: T } | { threw: unknown };

export interface InvokerDeps {
  clock: Clock;
  services: StepServices;
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
  /** Reads steps repeat within this slice; emptied when a body's writes are rolled back. */
  private readonly readCache = new TransactionReadCache();
  /** The transaction as steps see it (step-client.ts): the same client, with prepared statements and the read cache. */
  private readonly stepTx: PoolClient;

  constructor(
    private readonly tx: PoolClient,
    private readonly flow: CompiledFlow,
    private readonly deps: InvokerDeps,
    referenceVersion: ReferenceVersion | null,
    seeds: readonly CachedRead[],
  ) {
    this.stepTx = stepClient(tx, this.readCache, () => void (this.statements += 1));
    if (deps.referenceCache && referenceVersion) this.readCache.reference = { cache: deps.referenceCache, version: referenceVersion };
    for (const read of seeds) this.readCache.seed(read);
  }

  /** A statement of the host's own on the slice's transaction, counted. */
  sql(statement: string | { name: string; text: string; values: unknown[] }): Promise<unknown> {
    this.statements += 1;
    return typeof statement === 'string' ? this.tx.query(statement) : this.tx.query(statement);
  }

  /** What a body of `nodeId` receives, from the run state as decide left it. */
  context(state: RunState, nodeId: string, attempt: number): StepContext<unknown> {
    return { ...stepView(this.flow, state, nodeId, attempt), tx: this.stepTx, clock: this.deps.clock, services: this.deps.services };
  }

  /** Runs one body of `nodeId` under the savepoint rules of its phase. */
  async invoke<T>(state: RunState, nodeId: string, attempt: number, phase: BodyPhase, body: (ctx: StepContext<unknown>) => Promise<T> | T): Promise<Invocation<T>> {
    const ctx = this.context(state, nodeId, attempt);
    if (phase === 'undo' || phase === 'abandon') return this.inSavepoint(phase, () => body(ctx));
    const type = this.flow.nodes.get(nodeId)?.def.type ?? nodeId;
    // A span per step when tracing is on (its SQL spans nest under it); a plain call otherwise.
    const run = () => withSpan(`step ${type}`, { 'order.id': state.order.id, 'node.id': nodeId, 'step.attempt': attempt }, async () => body(ctx));
    if (this.deps.stepSavepoints) return this.inSavepoint('step', run);
    try {
      return { ok: await run() };
    } catch (err) {
      if (err instanceof StalePreparedPlan) throw err;
      throw new StepSavepointNeeded(nodeId, err);
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
      this.readCache.clear();
      if (err instanceof StalePreparedPlan) throw err;
      return { threw: err };
    }
  }
}
