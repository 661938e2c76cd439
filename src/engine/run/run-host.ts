// One run slice: everything that happens to one order between two rests, inside ONE transaction: decide, perform, write.
//
// The host feeds a command to decide (decide.ts), collects the write effects it returns in a
// SliceRecord, performs the I/O effect it waits for (a step body, an undo, an abandon, through the
// StepInvoker) and feeds the outcome back, until the run rests. commit() then writes everything in
// one statement with the orders row (slice-write.ts) and commits the command's transaction with it. An external step's body
// returns a call instead of a result: decide records it and the run rests until the answer's command.
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { COMPILER_VERSION, type CompiledFlow } from '../compiler.js';
import type { CachedRead } from '../../db/transaction-read-cache.js';
import type { ReferenceVersion } from '../../db/reference-cache.js';
import type { NewTimer } from '../scheduler/timer-store.js';
import type { NodeRecord } from '../runtime/node-record.js';
import type { RunRow } from '../runtime/run-row.js';
import type { OrderSubject } from '../order-subject.js';
import { outboxRows } from '../runtime/outbox.js';
import { SliceRecord } from '../runtime/slice-record.js';
import { sliceWriteStatement } from '../runtime/slice-write.js';
import type { WaitRow } from '../runtime/waits.js';
import type { HoldRow } from '../runtime/holds.js';
import { decide } from './decide.js';
import { isIoEffect, type IoEffect } from './effects.js';
import type { EffectResult, RunCommand } from './run-input.js';
import { openRunState, withFacts, type RunOrder, type RunState } from './run-state.js';
import { SliceFacts } from './slice-facts.js';
import { StepInvoker, type InvokerDeps } from './step-invoker.js';
import { performEffect } from './perform-effect.js';

/** Upper bound of effects one slice performs: a flow that never waits is a bug, not a workload. */
const MAX_EFFECTS_PER_SLICE = 10_000;

export interface SliceDeps extends InvokerDeps {
  /** The order's business side (the host's): the summary events carry, where they are filed, the columns of changed facts. */
  subject: OrderSubject;
}

/** What the command read with the lock (order-lock.ts) besides the order row. */
export interface SliceState {
  nodes: Map<string, NodeRecord>;
  /** Open waits in (since, node_id) order. */
  waits: WaitRow[];
  /** Open holds (contract 16); none for a new order. */
  holds?: HoldRow[];
  /** The reference data's version, read with the lock or the insert; null when unknown (no reference cache then). */
  referenceVersion?: ReferenceVersion | null;
  /** Rows the command wrote or read already (a new order's lines), entered in the slice's read cache. */
  seeds?: readonly CachedRead[];
  /** A new order whose row is not written yet (its columns as JSON): the slice's write inserts it instead of updating it. */
  newRow?: string;
}

export class RunHost {
  private readonly record = new SliceRecord();
  /** The node records as the slice opened them: commit writes the map when decide changed any. */
  private readonly openedNodes: ReadonlyMap<string, NodeRecord>;

  private constructor(
    private state: RunState,
    readonly flow: CompiledFlow,
    private readonly invoker: StepInvoker,
    private readonly deps: SliceDeps,
    /** The order's facts the slice's ports read and change (written with the orders row). */
    private readonly facts: SliceFacts,
    /** The new order's row to insert with the slice's write (SliceState.newRow), or null for an update. */
    private readonly newRow: string | null,
  ) {
    this.openedNodes = state.nodes;
  }

  /** Opens a slice over a locked order row, with its node records and open waits as the command read them. */
  static open(tx: PoolClient, order: RunRow, flow: CompiledFlow, deps: SliceDeps, opened: SliceState): RunHost {
    const facts = new SliceFacts(order.id, order.facts);
    const invoker = new StepInvoker(tx, flow, deps, opened.referenceVersion ?? null, opened.seeds ?? [], facts);
    return new RunHost(openRunState(flow, order, opened.nodes, opened.waits, opened.holds ?? []), flow, invoker, deps, facts, opened.newRow ?? null);
  }

  /** The run as decide left it. */
  get runState(): RunState {
    return this.state;
  }

  get order(): RunOrder {
    return this.state.order;
  }

  /** The order's open waits as they stand in this slice, in (since, node id) order. */
  get openWaits(): readonly WaitRow[] {
    return this.state.waits;
  }

  /** The order's open holds as they stand in this slice. */
  get openHolds(): readonly HoldRow[] {
    return this.state.holds;
  }

  /** Timers committed with this slice; handed to the scheduler's index after commit. */
  get timers(): readonly NewTimer[] {
    return this.record.timers;
  }

  /** Statements this slice sent (steps', savepoints, the write): for the metrics. */
  get statements(): number {
    return this.invoker.statements;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  /** Decides a command, then performs what decide waits for and feeds it back, until the run rests. */
  async apply(command: RunCommand): Promise<void> {
    let input: RunCommand | EffectResult = command;
    for (let n = 0; ; n++) {
      if (n > MAX_EFFECTS_PER_SLICE) throw new Error(`flow ${this.flow.flowKey} ran ${n} actions without waiting`);
      const { state, effects } = decide(this.flow, this.state, { ...input, at: this.now(), newInstanceId: randomUUID() });
      this.state = state;
      for (const effect of effects) if (!isIoEffect(effect)) this.record.apply(effect);
      if (!state.awaiting) return;
      input = await this.perform(state.awaiting);
      // What the body's ports changed of the order is what the next decision and body see.
      this.state = withFacts(this.state, this.facts.facts);
    }
  }

  /** Runs the body an I/O effect names through the slice's invoker and answers with its outcome. */
  private perform(effect: IoEffect): Promise<EffectResult> {
    return performEffect(this.flow, this.state, effect, (nodeId, attempt, phase, body) => this.invoker.invoke(this.state, nodeId, attempt, phase, body));
  }

  /** Whether decide changed, added or dropped a node record since the slice opened. */
  private nodesChanged(): boolean {
    const now = this.state.nodes;
    if (now.size !== this.openedNodes.size) return true;
    for (const [id, rec] of now) if (this.openedNodes.get(id) !== rec) return true;
    return false;
  }

  /** Writes the slice (one statement) and commits the command's transaction in the same round trip; answers the outbox ids written. */
  async commit(): Promise<string[]> {
    const { order, snapshot, waits, holds } = this.state;
    const { subject } = this.deps;
    const label = (nodeId: string) => this.flow.nodes.get(nodeId)?.node.label ?? nodeId;
    const outbox = outboxRows(order.id, order.generation, this.record.events, subject.summary(order.id, order.facts), (event, data) =>
      subject.fileEvent ? subject.fileEvent(order.id, order.facts, event, data) : { data },
    );
    const changed = this.facts.changed();
    const statement = sliceWriteStatement({
      orderId: order.id,
      newRow: this.newRow,
      now: this.now(),
      nodes: this.nodesChanged() ? [...this.state.nodes.values()] : null,
      newWaits: this.record.newWaits,
      closedWaits: this.record.closedWaits,
      newHolds: this.record.newHolds,
      closedHolds: this.record.closedHolds,
      timers: this.record.timers,
      cancelTimers: this.record.cancelledTimers,
      cancelAllTimersAt: this.record.cancelAllTimersAt,
      timeline: this.record.timeline,
      calls: this.record.calls,
      outbox,
      order: {
        status: order.status,
        reason: order.reason,
        snapshot: snapshot ? { value: snapshot.value, context: snapshot.context } : null,
        compilerVersion: COMPILER_VERSION,
        vars: order.vars,
        rollback: order.rollback,
        // The list row's waiting-on: the open waits, then a held step's title (contract 16).
        waitingOn: [...waits.map((w) => w.title ?? w.nodeId), ...holds.map((h) => h.title)],
        waitingAt: [...waits.map((w) => label(w.nodeId)), ...holds.map((h) => label(h.nodeId))],
        waitingSince: waits.length || holds.length ? Math.min(...waits.map((w) => w.since), ...holds.map((h) => h.since)) : null,
        stepSeq: order.stepSeq,
        instanceId: order.instanceId,
        generation: order.generation,
        // The facts the steps' ports changed, in the host's columns (none: the row's own are left alone).
        columns: Object.keys(changed).length ? subject.columns(changed) : {},
      },
    });
    await this.invoker.writeAndCommit(statement);
    return outbox.map((r) => r.id);
  }
}
