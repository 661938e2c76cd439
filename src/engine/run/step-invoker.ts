// Runs node bodies (run, answer, undo, abandon) with their ports over the slice's store: the one place that knows savepoints.
//
// Steps run without a SAVEPOINT until they write: the store opens one in the round trip of a step's
// first write (slice-store.ts), so a step that fails after writing is rolled back to it and recorded
// as failed, and a step that only reads costs no savepoint and no subtransaction. A node type that
// decides before writing (`decidesBeforeWriting`) gets one only before a checked write; should it
// fail after an ordinary write, the command fails instead (nothing partial is kept). A read that fails
// aborts the transaction with nothing to roll back to: that is the store's failure (as when the
// database is unreachable), so the command is rolled back and the error surfaces; nothing is
// recorded and no command is ever run twice for a step. Undo and abandon bodies always get their
// own savepoint. A stale prepared statement is the connection's fault, not the body's: it aborts
// the command (StalePreparedPlan), which the runtime retries on a fresh connection.
import type { PoolClient } from 'pg';
import type { CompiledFlow } from '../compiler.js';
import type { StepContext } from '../node-type.js';
import type { StepPorts, StepPortsFactory } from '../step-store.js';
import type { Clock } from '../../platform/clock.js';
import type { CachedRead } from '../../db/transaction-read-cache.js';
import type { ReferenceCache, ReferenceVersion } from '../../db/reference-cache.js';
import { withSpan } from '../../telemetry/spans.js';
import { SliceStore, STEP_SAVEPOINT } from '../runtime/slice-store.js';
import { StalePreparedPlan } from '../runtime/stale-prepared-plan.js';
import { sendJoined, type NamedStatement } from '../runtime/named-statements.js';
import type { RunState } from './run-state.js';
import type { SliceFacts } from './slice-facts.js';
import { stepView } from './step-view.js';
import type { BodyPhase, Invocation } from './perform-effect.js';

export interface InvokerDeps {
  clock: Clock;
  /** Builds the ports steps receive over the slice's store (the host's plug-ins). */
  ports: StepPortsFactory;
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
    const def = this.flow.nodes.get(nodeId)?.def;
    const type = def?.type ?? nodeId;
    // A span per step when tracing is on (its SQL spans nest under it); a plain call otherwise.
    const run = () => withSpan(`step ${type}`, { 'order.id': state.order.id, 'node.id': nodeId, 'step.attempt': attempt }, async () => body(ctx));
    this.store.watchStep(!def?.decidesBeforeWriting);
    let out: Invocation<T>;
    try {
      out = { ok: await run() };
    } catch (err) {
      out = { threw: err };
    }
    const step = this.store.endStep();
    if ('threw' in out && out.threw instanceof StalePreparedPlan) throw out.threw;
    // A failed read left the transaction aborted with no savepoint to return to: the command fails, nothing is recorded.
    if (step.readFailure !== undefined) throw step.readFailure;
    const failed = 'threw' in out || step.writeFailure !== undefined;
    if (!failed) return out;
    const failure = 'threw' in out ? out.threw : step.writeFailure;
    // Failed after writing with no savepoint (a step that decides before writing did not): only the command's rollback takes it back.
    if (step.wrote && !step.saved) throw failure;
    // What it wrote goes with its savepoint (a body that swallowed its failed write fails all the same).
    if (step.saved) await this.rollbackTo(STEP_SAVEPOINT);
    return { threw: failure };
  }

  private async rollbackTo(savepoint: string): Promise<void> {
    await this.sql(`ROLLBACK TO SAVEPOINT ${savepoint}`);
    this.store.cache.clear();
  }

  private async inSavepoint<T>(name: 'undo' | 'abandon', body: () => Promise<T> | T): Promise<Invocation<T>> {
    await this.sql(`SAVEPOINT ${name}`);
    try {
      const ok = await body();
      await this.sql(`RELEASE SAVEPOINT ${name}`);
      return { ok };
    } catch (err) {
      await this.rollbackTo(name);
      if (err instanceof StalePreparedPlan) throw err;
      return { threw: err };
    }
  }
}
