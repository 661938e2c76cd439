// One run slice: everything that happens to one order between two waits, inside ONE transaction.
//
// The host drives the compiled machine with xstate's pure initialTransition()/transition(),
// executes the named actions they return (runStep, openWait) one by one, feeds each result
// back as step.done / step.failed / wait.resolved and stops when the machine waits or ends.
// Steps run without a SAVEPOINT (one transaction id per slice); when one throws, the command
// is rerun with a SAVEPOINT around every step, so a failing step still leaves no partial
// writes (StepSavepointNeeded). An external step's body returns a call instead of a result: the
// slice records it and the machine stays at the node until the answer's command (answerStep).
// The run's rules are pure functions (run-decisions.ts); what the slice decides to write
// (node records, waits, timers, calls, timeline, outbox) is kept in a SliceRecord and flush()
// writes it with the orders row in one statement (slice-write.ts); the caller commits.
import { randomUUID } from 'node:crypto';
import { initialTransition, transition } from 'xstate';
import type { PoolClient } from 'pg';
import type { Clock } from '../../platform/clock.js';
import { COMPILER_VERSION, FINAL_STATES, type CompiledFlow, type FlowEvent } from '../compiler.js';
import { DEFAULT_RETRY_POLICY, isExternalCall, type ExternalAnswer, type ExternalRequest, type RetryPolicy, type StepContext, type StepResult, type WaitResolution } from '../node-type.js';
import { isTerminalFailure } from '../../domain/errors.js';
import type { NewTimer } from '../scheduler/timer-store.js';
import { emptyNodeRecord, loadNodeRecords, type NodeRecord } from './node-record.js';
import { isFinished, orderView, type OrderRow, type OrderStatus, type PersistedSnapshot } from './order-row.js';
import { outboxRows, type OutboxEvent } from './outbox.js';
import { openWaits, type WaitRow } from './waits.js';
import { orderSummary } from './order-summary.js';
import { sliceWriteStatement } from './slice-write.js';
import { SliceStore } from './slice-store.js';
import type { StepPorts, StepPortsFactory } from '../step-store.js';
import { StalePreparedPlan } from './stale-prepared-plan.js';
import type { CachedRead } from '../../db/transaction-read-cache.js';
import type { ReferenceCache, ReferenceVersion } from '../../db/reference-cache.js';
import { StepSavepointNeeded } from './step-savepoint-needed.js';
import { SliceRecord } from './slice-record.js';
import { withSpan } from '../../telemetry/spans.js';
import { awaitsAnswer, decideFailure, decideUndoAnswer, restingStatus, undoOrder } from './run-decisions.js';
import { CALL_TIMER_KIND, callId, callTimerId, idempotencyKey, type CallPurpose, type CallRow } from './order-calls.js';

/** Upper bound of actions in one slice: a flow that never waits is a bug, not a workload. */
const MAX_ACTIONS_PER_SLICE = 10_000;

type Snapshot = ReturnType<CompiledFlow['machine']['resolveState']>;

export interface SliceDeps {
  clock: Clock;
  /**
   * Run each step inside its own SAVEPOINT. Off (the fast path), a step that throws aborts the
   * slice with StepSavepointNeeded and the command reruns with this on.
   */
  stepSavepoints?: boolean;
  /** The runtime's reference cache: steps read settings, products and sellers through it at the version the slice read. */
  referenceCache?: ReferenceCache;
  /** Builds the ports steps receive over the slice's store (the host's plug-ins). */
  ports: StepPortsFactory;
}

/** What the command already read with the lock (order-lock.ts); without it the slice reads it. */
export interface SliceState {
  nodes: Map<string, NodeRecord>;
  /** Open waits in (since, node_id) order. */
  waits: WaitRow[];
  /** The reference data's version, read with the lock or the insert; null when unknown (no reference cache then). */
  referenceVersion?: ReferenceVersion | null;
  /** Rows the command wrote or read already (a new order's lines), entered in the slice's read cache. */
  seeds?: readonly CachedRead[];
}

/** A URL as the timeline shows it: scheme, host and path, never the query (it may carry a token). */
function callTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

/** `HTTP 200`, or why there was no answer. */
function answerText(answer: ExternalAnswer): string {
  return answer.status !== null ? `HTTP ${answer.status}` : answer.error ?? 'no answer';
}

/** Timer kinds the runtime itself schedules. */
export const TIMER_KINDS = { waitTimeout: 'wait.timeout', stepRetry: 'step.retry' } as const;

export class RunSlice {
  private snapshot!: Snapshot;
  private nodes!: Map<string, NodeRecord>;
  /** Set by continue-as-new: the map is written even if the new run changed no record yet. */
  private nodesReplaced = false;
  /** What the slice will write (slice-record.ts). */
  private record!: SliceRecord;
  private queue: { type: string; nodeId: string }[] = [];
  /** The run store the slice lends its steps' ports (slice-store.ts): reader, writer, read cache, reference data. */
  private readonly store: SliceStore;
  /** The steps' ports, built over the store when the first step needs them. */
  private portsOfSlice: StepPorts | null = null;

  private constructor(
    readonly tx: PoolClient,
    public order: OrderRow,
    readonly flow: CompiledFlow,
    private readonly deps: SliceDeps,
  ) {
    this.store = new SliceStore(tx, () => void (this.statements += 1));
  }

  /** Statements this slice sent (steps', savepoints, the write): for the metrics. */
  statements = 0;

  /** A statement of the slice's own on its transaction, counted. */
  private sql(statement: string | { name: string; text: string; values: unknown[] }, values?: unknown[]): Promise<unknown> {
    this.statements += 1;
    return typeof statement === 'string' ? this.tx.query(statement, values) : this.tx.query(statement);
  }

  /** Opens a slice over a locked order row (with its node records and open waits when the caller read them). */
  static async open(tx: PoolClient, order: OrderRow, flow: CompiledFlow, deps: SliceDeps, state?: SliceState): Promise<RunSlice> {
    const slice = new RunSlice(tx, order, flow, deps);
    slice.nodes = state ? state.nodes : await loadNodeRecords(tx, order.id);
    slice.record = new SliceRecord(state ? state.waits : await openWaits(tx, order.id));
    if (order.snapshot) slice.snapshot = flow.machine.resolveState(order.snapshot);
    if (deps.referenceCache && state?.referenceVersion) slice.store.cache.reference = { cache: deps.referenceCache, version: state.referenceVersion };
    for (const read of state?.seeds ?? []) slice.store.cache.seed(read);
    return slice;
  }

  /** The order's open waits as they stand in this slice, in (since, node id) order. */
  get openWaits(): readonly WaitRow[] {
    return this.record.openWaits;
  }

  /** Timers committed with this slice; handed to the scheduler's index after commit. */
  get timers(): readonly NewTimer[] {
    return this.record.timers;
  }

  now(): number {
    return this.deps.clock.now();
  }

  get machineDone(): boolean {
    return this.snapshot?.status === 'done';
  }

  /** The node the machine currently stands at (null when finished). */
  get currentNode(): string | null {
    if (!this.snapshot || this.snapshot.status === 'done') return null;
    return typeof this.snapshot.value === 'string' ? this.snapshot.value : null;
  }

  node(nodeId: string): NodeRecord {
    let rec = this.nodes.get(nodeId);
    if (!rec) {
      rec = emptyNodeRecord(nodeId);
      this.nodes.set(nodeId, rec);
    }
    return rec;
  }

  private touch(rec: NodeRecord): void {
    this.record.touch(rec.nodeId);
  }

  note(kind: string, message: string, nodeId: string | null = null, data: Record<string, unknown> | null = null): void {
    this.record.note({ at: this.now(), kind, message, nodeId, data });
  }

  emit(event: OutboxEvent): void {
    this.record.emit(event);
  }

  setVars(vars: Record<string, unknown> | undefined): void {
    if (!vars || Object.keys(vars).length === 0) return;
    this.order.vars = { ...this.order.vars, ...vars };
  }

  label(nodeId: string): string {
    return this.flow.nodes.get(nodeId)?.node.label ?? nodeId;
  }

  stepContext(nodeId: string, attempt: number): StepContext<unknown> {
    const compiled = this.flow.nodes.get(nodeId);
    if (!compiled) throw new Error(`node ${nodeId} is not in flow ${this.flow.flowKey}`);
    const nodes: Record<string, unknown> = {};
    for (const [id, rec] of this.nodes) if (rec.output !== null && rec.output !== undefined) nodes[id] = rec.output;
    return {
      nodeId,
      params: compiled.params,
      attempt,
      order: orderView(this.order),
      vars: this.order.vars,
      nodes,
      passes: { ...(this.snapshot?.context.passes ?? {}) },
      ports: (this.portsOfSlice ??= this.deps.ports(this.store)),
      clock: this.deps.clock,
      wiredBranches: compiled.wired,
    };
  }

  // ---- driving the machine -------------------------------------------------------------

  /** Starts a fresh run (first start, or continue-as-new) from the trigger. */
  async begin(): Promise<void> {
    const [snapshot, actions] = initialTransition(this.flow.machine);
    this.snapshot = snapshot;
    this.enqueue(actions);
    await this.drain();
  }

  /** Sends one event to the machine; false when the current state does not accept it. */
  async send(event: FlowEvent): Promise<boolean> {
    if (!this.snapshot || this.snapshot.status === 'done' || !this.snapshot.can(event)) return false;
    const [next, actions] = transition(this.flow.machine, this.snapshot, event);
    this.snapshot = next;
    this.enqueue(actions);
    await this.drain();
    return true;
  }

  private enqueue(actions: readonly { type: string; params?: unknown }[]): void {
    for (const a of actions)
      if (a.type === 'runStep' || a.type === 'openWait') this.queue.push({ type: a.type, nodeId: (a.params as { nodeId: string }).nodeId });
  }

  private async drain(): Promise<void> {
    for (let n = 0; this.queue.length > 0; n++) {
      if (n > MAX_ACTIONS_PER_SLICE) throw new Error(`flow ${this.flow.flowKey} ran ${n} actions without waiting`);
      const action = this.queue.shift()!;
      if (action.type === 'openWait') await this.openWait(action.nodeId);
      else {
        const event = await this.runStep(action.nodeId, 1);
        if (event) {
          const [next, actions] = transition(this.flow.machine, this.snapshot, event);
          this.snapshot = next;
          this.enqueue(actions);
        }
      }
    }
  }

  /** Re-runs the step the machine stands at (a retry timer fired). */
  async retryStep(nodeId: string, attempt: number): Promise<void> {
    const event = await this.runStep(nodeId, attempt);
    if (!event) return;
    const [next, actions] = transition(this.flow.machine, this.snapshot, event);
    this.snapshot = next;
    this.enqueue(actions);
    await this.drain();
  }

  /**
   * Runs one step (in a SAVEPOINT when stepSavepoints is on). Success -> step.done; a terminal
   * error or the last attempt -> step.failed; otherwise a retry timer is scheduled and null
   * returned (the machine stays). Without savepoints a throw aborts the slice instead
   * (StepSavepointNeeded), and the command runs again with them.
   */
  private async runStep(nodeId: string, attempt: number): Promise<FlowEvent | null> {
    const compiled = this.flow.nodes.get(nodeId)!;
    const run = compiled.def.run?.bind(compiled.def);
    if (!run) throw new Error(`node type ${compiled.def.type} has no run()`);
    return this.invokeStep(nodeId, attempt, 'run', (ctx) => run(ctx));
  }

  /**
   * Runs one step body (`run`, or `answer` with an external call's answer) with the savepoint
   * rules of runStep. A `{ call }` result records the call and leaves the machine at the node.
   */
  private async invokeStep(
    nodeId: string,
    attempt: number,
    phase: 'run' | 'answer',
    body: (ctx: StepContext<unknown>) => Promise<StepResult | { call: ExternalRequest }> | StepResult | { call: ExternalRequest },
  ): Promise<FlowEvent | null> {
    const compiled = this.flow.nodes.get(nodeId)!;
    const rec = this.node(nodeId);
    if (attempt === 1 && phase === 'run') {
      rec.runs += 1;
      rec.startedAt = this.now();
      rec.endedAt = null;
      rec.error = null;
    }
    rec.attempt = attempt;
    rec.status = 'running';
    this.touch(rec);
    let result: StepResult | { call: ExternalRequest };
    // A span per step when tracing is on (its SQL spans nest under it); a plain call otherwise.
    const invoke = () =>
      withSpan(`step ${compiled.def.type}`, { 'order.id': this.order.id, 'node.id': nodeId, 'step.attempt': attempt }, async () => body(this.stepContext(nodeId, attempt)));
    if (this.deps.stepSavepoints) {
      await this.sql('SAVEPOINT step');
      try {
        result = await invoke();
        await this.sql('RELEASE SAVEPOINT step');
      } catch (err) {
        await this.sql('ROLLBACK TO SAVEPOINT step');
        this.store.cache.clear();
        // A stale prepared statement is the connection's fault, not the step's: the command reruns.
        if (err instanceof StalePreparedPlan) throw err;
        const event = this.stepFailed(nodeId, attempt, err);
        if (event) await this.abandon(nodeId);
        return event;
      }
    } else {
      this.store.watchStep();
      try {
        result = await invoke();
      } catch (err) {
        if (err instanceof StalePreparedPlan) throw err;
        // Its ports wrote (or a statement failed): only a rerun with savepoints takes that back. Otherwise nothing to undo.
        if (this.store.stepTouched) throw new StepSavepointNeeded(nodeId, err);
        const event = this.stepFailed(nodeId, attempt, err);
        if (event) await this.abandon(nodeId);
        return event;
      }
    }
    if (isExternalCall(result)) {
      if (phase === 'answer') throw new Error(`node type ${compiled.def.type} answered a call with another call`);
      this.recordCall(nodeId, rec.runs, 'step', attempt, result.call, this.now());
      return null;
    }
    this.completeNode(nodeId, result);
    return { type: 'step.done', nodeId, branch: result.branch };
  }

  /** Records an external call (written with the slice) and its wake-up timer, due at `dueAt`. */
  private recordCall(nodeId: string, run: number, purpose: CallPurpose, attempt: number, request: ExternalRequest, dueAt: number): void {
    const { id: orderId, generation } = this.order;
    const id = callId(orderId, generation, nodeId, run, purpose, attempt);
    this.record.call(
      { id, orderId, generation, nodeId, run, purpose, attempt, idempotencyKey: idempotencyKey(orderId, generation, nodeId, run, purpose), request },
      { id: callTimerId(id), orderId, kind: CALL_TIMER_KIND, nodeId, run, dueAt, payload: { callId: id, generation } },
    );
    const what = purpose === 'undo' ? `Undo of ${this.label(nodeId)}` : this.label(nodeId);
    this.note('node.call', `${what}: ${request.method} ${callTarget(request.url)} (attempt ${attempt})`, nodeId, { attempt, purpose, method: request.method, url: callTarget(request.url) });
  }

  /**
   * Whether an answer to `call` is the one the run waits for: the order still runs that node's
   * run and attempt in the same generation. Anything else is a late answer: recorded, ignored.
   */
  awaits(call: CallRow): boolean {
    return awaitsAnswer(call, this.order.generation, this.currentNode, this.nodes.get(call.nodeId));
  }

  /** The answer of the call the run waits for: the node's `answer` decides, then the run goes on. */
  async answerStep(call: CallRow, answer: ExternalAnswer): Promise<void> {
    const compiled = this.flow.nodes.get(call.nodeId)!;
    const handle = compiled.def.answer?.bind(compiled.def);
    if (!handle) throw new Error(`node type ${compiled.def.type} made a call but has no answer()`);
    this.note('node.answer', `${this.label(call.nodeId)}: ${answerText(answer)} (attempt ${call.attempt})`, call.nodeId, { attempt: call.attempt, status: answer.status });
    const event = await this.invokeStep(call.nodeId, call.attempt, 'answer', (ctx) => handle(ctx, answer));
    if (!event) return;
    const [next, actions] = transition(this.flow.machine, this.snapshot, event);
    this.snapshot = next;
    this.enqueue(actions);
    await this.drain();
  }

  /** An answer the run no longer waits for (cancelled, moved on, a repeat): only the timeline hears of it. */
  noteLateAnswer(call: CallRow, answer: ExternalAnswer): void {
    this.note('node.late_answer', `Late answer for ${this.label(call.nodeId)} (attempt ${call.attempt}): ${answerText(answer)}; changed nothing`, call.nodeId, {
      attempt: call.attempt,
      status: answer.status,
    });
  }

  /**
   * The answer of an undo call (rollback or cancel of an external step): recorded in the
   * timeline; a failure that may pass is tried again by the node's retry policy, durably.
   */
  answerUndo(call: CallRow, answer: ExternalAnswer): void {
    const label = this.label(call.nodeId);
    const policy = this.retryPolicyOf(call.nodeId);
    const decision = decideUndoAnswer(answer.status, answer.terminal, call.attempt, policy, this.now());
    if (decision.kind === 'done') {
      this.note('node.undo_call', `Undo of ${label}: ${answerText(answer)}`, call.nodeId, { attempt: call.attempt, status: answer.status });
      return;
    }
    if (decision.kind === 'retry') {
      this.note('node.undo_retry', `Undo of ${label} failed (attempt ${call.attempt} of ${policy.attempts}): ${answerText(answer)}; retrying`, call.nodeId, {
        attempt: call.attempt,
        retryAt: decision.dueAt,
      });
      this.recordCall(call.nodeId, call.run, 'undo', call.attempt + 1, call.request, decision.dueAt);
      return;
    }
    this.note('node.undo_failed', `Undoing ${label} failed: ${answerText(answer)}`, call.nodeId, { attempt: call.attempt, status: answer.status });
  }

  private retryPolicyOf(nodeId: string): RetryPolicy {
    const compiled = this.flow.nodes.get(nodeId)!;
    return compiled.def.retryPolicy?.(compiled.params) ?? compiled.def.retry ?? DEFAULT_RETRY_POLICY;
  }

  private stepFailed(nodeId: string, attempt: number, err: unknown): FlowEvent | null {
    const compiled = this.flow.nodes.get(nodeId)!;
    const rec = this.node(nodeId);
    const message = err instanceof Error ? err.message : String(err);
    const terminal = isTerminalFailure(err);
    const policy = this.retryPolicyOf(nodeId);
    rec.error = message;
    // An external step's failure may carry what it got back (http.call: `{ status, body, attempts }`).
    const output = (err as { output?: unknown } | null)?.output;
    if (output !== undefined) rec.output = output;
    const decision = decideFailure(policy, attempt, terminal, this.now(), (err as { retryAfterMs?: number }).retryAfterMs);
    if (decision.retry) {
      const { dueAt } = decision;
      this.record.schedule({
        id: `${this.order.id}:${this.order.generation}:${nodeId}:${rec.runs}:retry:${attempt + 1}`,
        orderId: this.order.id,
        kind: TIMER_KINDS.stepRetry,
        nodeId,
        run: rec.runs,
        dueAt,
        payload: { attempt: attempt + 1, generation: this.order.generation },
      });
      this.note('node.retry', `${this.label(nodeId)} failed (attempt ${attempt} of ${policy.attempts}): ${message}; retrying`, nodeId, {
        attempt,
        retryAt: dueAt,
      });
      this.touch(rec);
      return null;
    }
    rec.status = 'failed';
    rec.endedAt = this.now();
    this.touch(rec);
    this.note('node.failed', `${this.label(nodeId)} failed: ${message}`, nodeId, { attempt, terminal });
    this.lastFailure = { nodeId, type: compiled.def.type, error: message };
    return { type: 'step.failed', nodeId, terminal };
  }

  /**
   * Runs an external step's `abandon` (what its `run` prepared before calling, released) in its
   * own savepoint: after its final failure, or for a step whose call was out when the order was
   * cancelled. A failing abandon is recorded and changes nothing else.
   */
  private async abandon(nodeId: string): Promise<void> {
    const compiled = this.flow.nodes.get(nodeId)!;
    const abandon = compiled.def.abandon?.bind(compiled.def);
    if (!abandon) return;
    const rec = this.node(nodeId);
    await this.sql('SAVEPOINT abandon');
    try {
      await abandon(this.stepContext(nodeId, rec.attempt));
      await this.sql('RELEASE SAVEPOINT abandon');
    } catch (err) {
      await this.sql('ROLLBACK TO SAVEPOINT abandon');
      this.store.cache.clear();
      if (err instanceof StalePreparedPlan) throw err;
      this.note('node.undo_failed', `Releasing what ${this.label(nodeId)} prepared failed: ${err instanceof Error ? err.message : String(err)}`, nodeId);
    }
  }

  /** The failure that ended the run, for the order's reason and the order.failed payload. */
  lastFailure: { nodeId: string; type: string; error: string } | null = null;

  private completeNode(nodeId: string, result: StepResult): void {
    const rec = this.node(nodeId);
    rec.status = 'succeeded';
    rec.output = result.output ?? null;
    rec.summary = result.summary ?? rec.summary;
    rec.error = null;
    rec.endedAt = this.now();
    rec.branches = rec.branches.includes(result.branch) ? rec.branches : [...rec.branches, result.branch];
    this.order.stepSeq += 1;
    rec.doneSeq = this.order.stepSeq;
    this.touch(rec);
    this.setVars(result.vars);
    if (result.totals) Object.assign(this.order, { subtotal: result.totals.subtotal, tax: result.totals.tax, total: result.totals.total });
    const def = this.flow.nodes.get(nodeId)!.def;
    if (def.kind !== 'logic') this.note('node.succeeded', result.summary ?? `${this.label(nodeId)} done (${result.branch})`, nodeId, { branch: result.branch });
    if (result.emit) this.emit({ event: result.emit.event, nodeId, run: rec.runs, data: { node: { id: nodeId, type: def.type, output: result.output ?? null }, ...result.emit.data } });
  }

  private async openWait(nodeId: string): Promise<void> {
    const compiled = this.flow.nodes.get(nodeId)!;
    const rec = this.node(nodeId);
    rec.runs += 1;
    rec.status = 'waiting';
    rec.startedAt = this.now();
    rec.endedAt = null;
    this.touch(rec);
    const spec = compiled.def.wait!(this.stepContext(nodeId, 1));
    const now = this.now();
    let timerId: string | null = null;
    const deadline = spec.timeoutMs === null ? null : now + spec.timeoutMs;
    if (deadline !== null) {
      timerId = `${this.order.id}:${this.order.generation}:${nodeId}:${rec.runs}:timeout`;
      this.record.schedule({ id: timerId, orderId: this.order.id, kind: TIMER_KINDS.waitTimeout, nodeId, run: rec.runs, dueAt: deadline, payload: { generation: this.order.generation } });
    }
    const title = spec.title ?? (spec.kind === 'event' ? `Waiting for ${spec.event}` : spec.kind === 'delay' ? `Delay until ${new Date(deadline ?? now).toISOString()}` : this.label(nodeId));
    const wait: WaitRow = {
      orderId: this.order.id,
      nodeId,
      run: rec.runs,
      generation: this.order.generation,
      kind: spec.kind,
      title,
      event: spec.event ?? null,
      assignee: spec.assignee ?? null,
      amountMinor: spec.amount ?? null,
      deadline,
      since: now,
      status: 'open',
      decidedBy: null,
      note: null,
      closedAt: null,
      timerId,
    };
    this.record.openWait(wait);
    this.note('wait.opened', title, nodeId, { kind: spec.kind, event: spec.event ?? null, deadline });
  }

  /** Resolves an open wait with an event, a decision or its timer, then continues the run. */
  async resolveWait(wait: WaitRow, resolution: WaitResolution, closeAs: string, by: string | null = null, note: string | null = null): Promise<StepResult> {
    const compiled = this.flow.nodes.get(wait.nodeId)!;
    const result = compiled.def.resolveWait!(compiled.params, resolution);
    this.record.closeWait(wait, closeAs, this.now(), by, note);
    if (wait.timerId && resolution.kind !== 'timeout' && resolution.kind !== 'elapsed') this.record.cancelTimer(wait.timerId, this.now());
    this.completeNode(wait.nodeId, result);
    await this.send({ type: 'wait.resolved', nodeId: wait.nodeId, branch: result.branch });
    return result;
  }

  // ---- ending a run ----------------------------------------------------------------------

  /**
   * Undoes every completed step in reverse completion order (compensate, or cancel-undo for a
   * cancel); a failing undo is recorded and does not stop the others.
   */
  async undoCompleted(mode: 'compensate' | 'cancel', outcome: string): Promise<void> {
    const done = undoOrder(this.nodes.values());
    const errors: string[] = [];
    let ran = false;
    for (const rec of done) {
      const compiled = this.flow.nodes.get(rec.nodeId);
      if (!compiled) continue;
      const undo =
        mode === 'cancel' ? (compiled.def.cancel === null ? undefined : compiled.def.cancel ?? compiled.def.compensate?.bind(compiled.def)) : compiled.def.compensate?.bind(compiled.def);
      if (!undo || compiled.def.undoable?.(compiled.params) === false) continue;
      ran = true;
      await this.sql('SAVEPOINT undo');
      try {
        const undone = await undo(this.stepContext(rec.nodeId, rec.attempt));
        await this.sql('RELEASE SAVEPOINT undo');
        // An external step undoes remotely: the call is made after commit and retried durably; its answer goes to the timeline.
        if (isExternalCall(undone)) this.recordCall(rec.nodeId, rec.runs, 'undo', 1, undone.call, this.now());
        rec.status = 'rolled_back';
        this.touch(rec);
        this.note('node.rolled_back', `${this.label(rec.nodeId)} undone`, rec.nodeId);
      } catch (err) {
        await this.sql('ROLLBACK TO SAVEPOINT undo');
        this.store.cache.clear();
        if (err instanceof StalePreparedPlan) throw err;
        const message = err instanceof Error ? err.message : String(err);
        errors.push(`${rec.nodeId}: ${message}`);
        this.note('node.undo_failed', `Undoing ${this.label(rec.nodeId)} failed: ${message}`, rec.nodeId);
      }
    }
    if (ran) this.order.rollback = { outcome, error: errors.length ? errors.join('; ') : null };
  }

  /** Marks every node of the flow that never ran in this run as skipped. */
  private skipUntaken(): void {
    for (const nodeId of this.flow.nodes.keys()) {
      const rec = this.node(nodeId);
      if (rec.status === 'pending' || rec.status === 'waiting' || rec.status === 'running') {
        rec.status = 'skipped';
        rec.endedAt ??= this.now();
        this.touch(rec);
      }
    }
  }

  /** Closes open waits and timers of the run (end, cancel). */
  private closeAllWaits(status: string): void {
    this.record.closeAll(status, this.now());
  }

  /** After the machine reached a final state: undo if needed, set the final status, emit the event. */
  async finishIfDone(): Promise<void> {
    // A slice over an order that already ended (a late answer, an undo call's answer) only records.
    if (isFinished(this.order.status)) return;
    while (this.snapshot.status === 'done') {
      const output = this.snapshot.output;
      const endNode = typeof this.snapshot.value === 'string' ? this.snapshot.value : '';
      if (output.outcome === 'continue') {
        await this.continueAsNew(endNode);
        continue;
      }
      if (output.outcome === 'cancelled' && endNode === FINAL_STATES.cancelled) return; // cancel() finishes itself
      const failure = this.lastFailure;
      let status: OrderStatus;
      let reason: string | null = output.reason;
      if (endNode === FINAL_STATES.failed || endNode === FINAL_STATES.rolledBack) {
        status = endNode === FINAL_STATES.failed ? 'failed' : 'rolled_back';
        reason = failure?.error ?? 'A step failed';
        await this.undoCompleted('compensate', status);
        this.emit({ event: 'order.failed', nodeId: failure?.nodeId ?? endNode, run: this.node(failure?.nodeId ?? endNode).runs, data: { outcome: 'failed', reason, node: failure ? { id: failure.nodeId, type: failure.type, error: failure.error } : null } });
      } else {
        status = output.outcome;
        if (status !== 'completed') await this.undoCompleted('compensate', status);
        const rec = this.node(endNode);
        rec.runs += 1;
        rec.status = 'succeeded';
        rec.startedAt = rec.endedAt = this.now();
        this.touch(rec);
        this.emit({ event: `order.${status}`, nodeId: endNode, run: rec.runs, data: { outcome: status, reason } });
      }
      this.closeAllWaits('cancelled');
      this.skipUntaken();
      this.order.status = status;
      this.order.reason = reason;
      this.note(`order.${status}`, reason ? `Order ${status.replace('_', ' ')}: ${reason}` : `Order ${status.replace('_', ' ')}`, null);
      return;
    }
  }

  /** Continue-as-new: a new run (instanceId, generation + 1) from the trigger; vars are kept. */
  private async continueAsNew(atNode: string): Promise<void> {
    // The new run starts with no node records: the slice's write replaces the map with the new run's.
    this.record.takeDirtyNodes();
    this.nodesReplaced = true;
    this.nodes = new Map();
    this.order.generation += 1;
    this.order.instanceId = randomUUID();
    this.order.stepSeq = 0;
    this.note('run.continued', `Continued as new run (generation ${this.order.generation})`, atNode, { instanceId: this.order.instanceId });
    await this.begin();
  }

  /** Cancels the run: closes waits (approvals marked cancelled), clears timers, undoes, status cancelled. */
  async cancel(reason: string): Promise<void> {
    this.closeAllWaits('cancelled');
    // A step whose call is out never completes: what its run prepared is released instead.
    for (const rec of [...this.nodes.values()]) if (rec.status === 'running') await this.abandon(rec.nodeId);
    await this.undoCompleted('cancel', 'cancelled');
    if (this.snapshot && this.snapshot.status !== 'done') {
      const [next] = transition(this.flow.machine, this.snapshot, { type: 'order.cancel' });
      this.snapshot = next;
    }
    this.skipUntaken();
    this.order.status = 'cancelled';
    this.order.reason = reason;
    this.emit({ event: 'order.cancelled', nodeId: 'cancel', run: 1, data: { outcome: 'cancelled', reason } });
    this.note('order.cancelled', `Order cancelled: ${reason}`);
  }

  // ---- persisting -------------------------------------------------------------------------

  /**
   * Finishes the run if the machine ended, then writes everything the slice changed in one
   * statement (slice-write.ts); the caller commits. Returns the outbox ids written.
   */
  async flush(): Promise<string[]> {
    await this.finishIfDone();
    const now = this.now();
    const waits = this.record.openWaits;
    if (!isFinished(this.order.status))
      this.order.status = restingStatus(waits.length);
    const persisted: PersistedSnapshot | null = this.snapshot
      ? { value: this.snapshot.value, context: this.snapshot.context }
      : null;
    const outbox = outboxRows(this.order.id, this.order.generation, this.record.events, orderSummary(this.order) as unknown as Record<string, unknown>);
    const dirty = this.record.takeDirtyNodes();
    for (const id of dirty) this.node(id);
    const nodes = dirty.length || this.nodesReplaced ? [...this.nodes.values()] : null;
    const statement = sliceWriteStatement({
        orderId: this.order.id,
        now,
        nodes,
        newWaits: this.record.newWaits,
        closedWaits: this.record.closedWaits,
        timers: this.record.timers,
        cancelTimers: this.record.cancelledTimers,
        cancelAllTimersAt: this.record.cancelAllTimersAt,
        timeline: this.record.timeline,
        calls: this.record.calls,
        outbox,
        order: {
          status: this.order.status,
          reason: this.order.reason,
          snapshot: persisted,
          compilerVersion: COMPILER_VERSION,
          vars: this.order.vars,
          rollback: this.order.rollback,
          waitingOn: waits.map((w) => w.title ?? w.nodeId),
          waitingAt: waits.map((w) => this.label(w.nodeId)),
          waitingSince: waits.length ? Math.min(...waits.map((w) => w.since)) : null,
          stepSeq: this.order.stepSeq,
          subtotal: this.order.subtotal,
          tax: this.order.tax,
          total: this.order.total,
          instanceId: this.order.instanceId,
          generation: this.order.generation,
        },
      });
    await this.sql(statement);
    return outbox.map((r) => r.id);
  }
}
