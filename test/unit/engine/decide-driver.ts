// A pure executor for decide (no database): answers its I/O effects from a script, keeps timers and calls as the store would.
import { z } from 'zod';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { compileFlow, type CompiledFlow } from '../../../src/engine/compiler.js';
import type { Graph } from '../../../src/engine/graph.js';
import type { ExternalAnswer, ExternalRequest, NodeTypeDef, StepContext } from '../../../src/engine/node-type.js';
import { decide, type Decision } from '../../../src/engine/run/decide.js';
import type { Effect, IoEffect, RunStepEffect, UndoMode } from '../../../src/engine/run/effects.js';
import type { EffectResult, RunCommand } from '../../../src/engine/run/run-input.js';
import { openRunState, type RunState } from '../../../src/engine/run/run-state.js';
import { stepView } from '../../../src/engine/run/step-view.js';
import type { CallRow } from '../../../src/engine/runtime/order-calls.js';
import type { RunFields, RunRow } from '../../../src/engine/runtime/run-row.js';
import { SliceRecord } from '../../../src/engine/runtime/slice-record.js';
import type { NewTimer } from '../../../src/engine/scheduler/timer-store.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { testChoice, testStep } from './test-catalogue.js';

const stepParams = z.strictObject({ label: z.string().optional() });

/** A step with an undo (compensate, and its own cancel): what rollback and cancel undo. Its bodies are the executor's; decide never calls them. */
export const undoStep: NodeTypeDef<{ label?: string }> = {
  type: 'test.undo',
  kind: 'step',
  label: 'Undoable step',
  description: 'A step with compensate and cancel.',
  params: stepParams,
  branches: () => ['ok', 'failed'],
  defaultBranch: 'ok',
  optionalBranches: ['failed'],
  failureBranch: 'failed',
  retry: { attempts: 3, backoffMs: 1_000, factor: 2 },
  run: () => ({ branch: 'ok' }),
  async compensate() {},
  async cancel() {},
};

/** A step whose cancel undoes nothing (`cancel: null`, like a capture): only a rollback compensates it. */
export const keepOnCancelStep: NodeTypeDef<{ label?: string }> = { ...undoStep, type: 'test.keep', label: 'Kept on cancel', cancel: null };

export const CALL_REQUEST: ExternalRequest = { method: 'POST', url: 'https://api.example/pay?token=secret', headers: {}, body: { a: 1 }, timeoutMs: 5_000, signWith: null };

/** An external step: run asks for a call, answer decides, abandon releases, compensate undoes with a call. */
export const externalStep: NodeTypeDef<{ label?: string }> = {
  type: 'test.external',
  kind: 'step',
  label: 'External step',
  description: 'A step that calls out.',
  params: stepParams,
  branches: () => ['ok', 'failed'],
  defaultBranch: 'ok',
  optionalBranches: ['failed'],
  failureBranch: 'failed',
  retry: { attempts: 2, backoffMs: 10_000, factor: 2 },
  run: () => ({ call: CALL_REQUEST }),
  answer: () => ({ branch: 'ok' }),
  async abandon() {},
  async compensate() {
    return { call: CALL_REQUEST };
  },
};

export const decideCatalogue = createCatalogue([...genericNodeTypes, testStep, testChoice, undoStep, keepOnCancelStep, externalStep]);

export function compile(graph: Graph, key = 'test-flow@1'): CompiledFlow {
  return compileFlow(key, graph, decideCatalogue);
}

export const T0 = 1_800_000_000_000;

/** A recorded order that has not started, as startNew hands it to the first slice: its run's fields, and `facts` (a commerce order's, opaque to decide). */
export function newOrderRow(over: Partial<RunFields> = {}, facts: Record<string, unknown> = {}): RunRow {
  return {
    id: 'ord_pure',
    flowId: 'test-flow',
    flowVersion: 1,
    facts: {
      model: 'b2c',
      channel: 'api',
      externalId: null,
      title: 'Pure order',
      customerId: null,
      contactEmail: null,
      currency: 'USD',
      fxRate: 1,
      subtotal: 1_000,
      tax: 0,
      total: 1_000,
      returnOf: null,
      ...facts,
    },
    input: {},
    meta: {},
    status: 'queued',
    reason: null,
    instanceId: 'inst-0',
    generation: 1,
    snapshot: null,
    compilerVersion: 1,
    vars: {},
    rollback: null,
    stepSeq: 0,
    started: false,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

/** How the executor answers decide's I/O effects (each defaults to success). */
export interface Script {
  step?(effect: RunStepEffect, run: PureRun): EffectResult;
  undo?(nodeId: string, mode: UndoMode, run: PureRun): EffectResult;
  abandon?(nodeId: string, run: PureRun): EffectResult;
}

/** Runs generic node types' bodies (trigger, logic) for real: they are pure. */
function pureBody(flow: CompiledFlow, state: RunState, effect: RunStepEffect): EffectResult | null {
  const { def } = flow.nodes.get(effect.nodeId)!;
  if (!(def.kind === 'trigger' || def.kind === 'logic') || !def.run || effect.phase !== 'run') return null;
  const ctx: StepContext<unknown> = {
    ...stepView(flow, state, effect.nodeId, effect.attempt),
    ports: new Proxy({}, {
      get(_target, port) {
        throw new Error(`no ports in pure tests (${String(port)})`);
      },
    }) as StepContext<unknown>['ports'],
    clock: { now: () => T0 },
  };
  const result = def.run(ctx);
  if (result instanceof Promise || 'call' in result) throw new Error(`${def.type} is not pure`);
  return { type: 'stepDone', result };
}

/** Plain data of a state, to check decide changed nothing it was given. */
function fingerprint(state: RunState): string {
  return JSON.stringify({
    order: state.order,
    snapshot: state.snapshot && { value: state.snapshot.value, context: state.snapshot.context, status: state.snapshot.status },
    nodes: [...state.nodes.entries()],
    waits: state.waits,
    holds: state.holds,
    lastFailure: state.lastFailure,
    agenda: state.agenda,
    awaiting: state.awaiting,
  });
}

/**
 * One order driven by decide alone: commands go in, I/O effects are answered by the script,
 * write effects are collected per command in a SliceRecord and "committed" to in-memory timers
 * and calls as the slice write would (a cancel-all leaves the timers of the same write standing).
 */
export class PureRun {
  state: RunState;
  now = T0;
  /** Pending timers by id. */
  readonly timers = new Map<string, NewTimer>();
  /** Calls not yet answered, by id. */
  readonly calls = new Map<string, CallRow>();
  /** Timers that fired, in order (to fire again and check that nothing happens). */
  readonly fired: NewTimer[] = [];
  /** Every decide call's effects in order (the I/O ones included). */
  readonly log: Effect[] = [];
  /** Every I/O effect with the outcome fed back, and the generation it ran in. */
  readonly answered: { effect: IoEffect; result: EffectResult; generation: number }[] = [];
  private ids = 0;

  /** A new order (not started), or a run as its command read it (a replay fixture at its wait). */
  constructor(
    readonly flow: CompiledFlow,
    readonly script: Script = {},
    from: RunRow | RunState = newOrderRow(),
  ) {
    this.state = 'agenda' in from ? from : openRunState(flow, from, new Map(), []);
  }

  /** One decide call, checked: the given state is left as it was, and the same input decides the same. */
  decideOnce(input: RunCommand | EffectResult): Decision {
    const before = fingerprint(this.state);
    const full = { ...input, at: this.now, newInstanceId: `inst-${++this.ids}` };
    const decision = decide(this.flow, this.state, full);
    if (fingerprint(this.state) !== before) throw new Error(`decide changed the state it was given (${input.type})`);
    const again = decide(this.flow, this.state, full);
    if (fingerprint(again.state) !== fingerprint(decision.state) || JSON.stringify(again.effects) !== JSON.stringify(decision.effects))
      throw new Error(`decide answered ${input.type} twice differently`);
    return decision;
  }

  /** A command, then the executor's answers until the run rests; returns every effect of the slice. */
  command(command: RunCommand): Effect[] {
    const record = new SliceRecord();
    const effects: Effect[] = [];
    let input: RunCommand | EffectResult = command;
    for (let n = 0; ; n++) {
      if (n > 5_000) throw new Error('the slice never rests');
      const decision = this.decideOnce(input);
      this.state = decision.state;
      effects.push(...decision.effects);
      this.log.push(...decision.effects);
      for (const e of decision.effects) if (e.type !== 'runStep' && e.type !== 'undo' && e.type !== 'abandon') record.apply(e);
      const awaiting = decision.state.awaiting;
      if (!awaiting) break;
      input = this.answer(awaiting);
      this.answered.push({ effect: awaiting, result: input, generation: this.state.order.generation });
    }
    this.commit(record);
    return effects;
  }

  private answer(effect: IoEffect): EffectResult {
    if (effect.type === 'runStep') return pureBody(this.flow, this.state, effect) ?? this.script.step?.(effect, this) ?? { type: 'stepDone', result: { branch: 'ok' } };
    if (effect.type === 'undo') return this.script.undo?.(effect.nodeId, effect.mode, this) ?? { type: 'undone', call: null };
    return this.script.abandon?.(effect.nodeId, this) ?? { type: 'abandoned' };
  }

  /** The slice write's effect on timers and calls. */
  private commit(record: SliceRecord): void {
    if (record.cancelAllTimersAt !== null) this.timers.clear();
    for (const { id } of record.cancelledTimers) this.timers.delete(id);
    for (const timer of record.timers) this.timers.set(timer.id, timer);
    for (const call of record.calls) this.calls.set(call.id, { ...call, status: 'pending' });
  }

  /** The earliest pending timer due by `until` (due order, then id). */
  nextDue(until = this.now): NewTimer | undefined {
    return [...this.timers.values()].filter((t) => t.dueAt <= until).sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : 1))[0];
  }

  /**
   * Fires one pending timer at its due time as the scheduler would; a call's timer is the call
   * executor's: it makes the call and the answer comes back as a command.
   */
  fire(timer: NewTimer, answer: (call: CallRow) => ExternalAnswer = okAnswer): Effect[] {
    this.now = Math.max(this.now, timer.dueAt);
    this.timers.delete(timer.id);
    this.fired.push(timer);
    if (timer.kind === 'call.perform') {
      const callId = (timer.payload as { callId: string }).callId;
      const call = this.calls.get(callId);
      if (!call) return [];
      this.calls.delete(callId);
      return this.command({ type: 'answer', call, answer: answer(call) });
    }
    return this.command({ type: 'timer', timer: { id: timer.id, kind: timer.kind, nodeId: timer.nodeId ?? null, run: timer.run ?? null, payload: timer.payload } });
  }

  /** Moves the clock and fires every timer due meanwhile, in due order. */
  advance(ms: number, answer?: (call: CallRow) => ExternalAnswer): Effect[] {
    const target = this.now + ms;
    const effects: Effect[] = [];
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) effects.push(...this.fire(timer, answer));
    this.now = target;
    return effects;
  }

  /** Node statuses, by node id. */
  statuses(): Record<string, string> {
    return Object.fromEntries([...this.state.nodes.values()].map((r) => [r.nodeId, r.status]));
  }
}

export function okAnswer(call: CallRow): ExternalAnswer {
  return { status: 200, body: { ok: true }, error: null, terminal: false, attempt: call.attempt, idempotencyKey: call.idempotencyKey };
}

/** The timeline entries of some effects, as `kind: message`. */
export function notes(effects: readonly Effect[]): string[] {
  return effects.flatMap((e) => (e.type === 'note' ? [`${e.entry.kind}: ${e.entry.message}`] : []));
}

/** The undo effects of some effects, as node ids in order. */
export function undone(effects: readonly Effect[]): string[] {
  return effects.flatMap((e) => (e.type === 'undo' ? [e.nodeId] : []));
}
