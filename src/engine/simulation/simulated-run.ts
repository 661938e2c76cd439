// One simulated order (contract 14): decide driven in memory like the run host drives it, steps over a simulated world, time on a simulated clock.
//
// The same loop as RunHost.apply (src/engine/run/run-host.ts): decide a command, collect its write
// effects, perform the I/O effect it waits for (a step, an answer, an undo, an abandon) with the
// node type's own body, feed the outcome back, until the run rests. What a slice would write goes
// to memory instead: timers and calls to maps, timeline entries and order events to lists. Time
// moves only when the script advances it; an external call is answered at once, by the script's
// `respond` for that node or with 200 {}, as the call executor would answer it after the commit.
import { randomUUID } from 'node:crypto';
import type { CompiledFlow } from '../compiler.js';
import type { ExternalAnswer, StepContext } from '../node-type.js';
import type { StepPorts } from '../step-store.js';
import { DomainError, ValidationError } from '../../domain/errors.js';
import { decide } from '../run/decide.js';
import { isIoEffect, type Effect, type IoEffect } from '../run/effects.js';
import { approvalWait, eventWait } from '../run/input-match.js';
import type { EffectResult, RunCommand } from '../run/run-input.js';
import { openRunState, withFacts, type RunState } from '../run/run-state.js';
import { SliceFacts } from '../run/slice-facts.js';
import { stepView } from '../run/step-view.js';
import { performEffect, type Invocation } from '../run/perform-effect.js';
import { CALL_TIMER_KIND, type CallRow } from '../runtime/order-calls.js';
import { isFinished, type RunRow } from '../runtime/run-row.js';
import { SliceRecord } from '../runtime/slice-record.js';
import type { TimelineEntry } from '../runtime/timeline.js';
import type { NewTimer } from '../scheduler/timer-store.js';
import type { SimulationBudget } from './simulation-budget.js';
import { SIMULATION_ACTOR, type SimulationStep } from './simulation-script.js';
import type { SimulatedWorld } from './simulated-world.js';

/** Upper bound of effects one command performs (as RunHost): a flow that never waits is refused, not run for ever. */
const MAX_EFFECTS_PER_SLICE = 10_000;

/** An order event the run would have sent (nothing is sent: no outbox, no webhook). */
export interface SimulatedEvent {
  event: string;
  nodeId: string;
  at: number;
}

/** An external call the run would have made, and the answer the simulation gave it. */
export interface SimulatedCall {
  nodeId: string;
  purpose: 'step' | 'undo';
  attempt: number;
  method: string;
  url: string;
  at: number;
  status: number;
  /** True when a script `respond` entry answered it; false for the default 200 {}. */
  scripted: boolean;
}

/** A script entry that cannot be applied to the run as it stands: 400 naming its index. */
function notApplicable(index: number, why: string): ValidationError {
  return new ValidationError([{ path: `script.${index}`, message: why }], `Script entry ${index} does not apply: ${why}`);
}

export class SimulatedRun {
  private state: RunState;
  private clock: number;
  /** Pending timers by id (what the slice writes would have left in `timers`). */
  private readonly timers = new Map<string, NewTimer>();
  /** Calls recorded and not answered yet, by id. */
  private readonly calls = new Map<string, CallRow>();
  readonly timeline: TimelineEntry[] = [];
  readonly events: SimulatedEvent[] = [];
  readonly callLog: SimulatedCall[] = [];
  /** Node ids in the order they ran (entered by the machine), repeats included. */
  readonly path: string[] = [];
  private script: readonly SimulationStep[] = [];
  private cursor = 0;
  /** The order's facts as the run holds them: the ports change them (a simulation writes them nowhere). */
  private readonly facts: SliceFacts;
  private readonly ports: StepPorts;

  constructor(
    private readonly flow: CompiledFlow,
    order: RunRow,
    private readonly world: SimulatedWorld,
    private readonly budget: SimulationBudget,
  ) {
    this.state = openRunState(flow, order, new Map(), []);
    this.clock = order.createdAt;
    this.facts = new SliceFacts(order.id, order.facts);
    this.ports = world.ports(this.facts);
  }

  /** The run as decide left it. */
  get runState(): RunState {
    return this.state;
  }

  /** The simulated clock (epoch ms). */
  get now(): number {
    return this.clock;
  }

  /** Script entries applied so far (`respond` entries used at their calls included). */
  get scriptUsed(): number {
    return this.cursor;
  }

  /**
   * Starts the order, then applies the script one entry each time the run stops, until the run
   * ends or the script is used up. Throws a 400 for an entry that does not apply, and the budget's
   * 400 past 1,000 slices or 2 s of CPU.
   */
  async play(script: readonly SimulationStep[]): Promise<void> {
    this.script = script;
    this.cursor = 0;
    await this.run({ type: 'start' });
    while (!isFinished(this.state.order.status) && this.cursor < this.script.length) {
      const index = this.cursor;
      this.cursor += 1;
      await this.apply(this.script[index], index);
    }
  }

  private async apply(step: SimulationStep, index: number): Promise<void> {
    const { waits, order } = this.state;
    switch (step.kind) {
      case 'event': {
        if (!eventWait(waits, order.generation, step.event)) throw notApplicable(index, `no wait for the event ${step.event}`);
        return this.run({ type: 'event', event: step.event, payload: step.payload });
      }
      case 'decision': {
        const open = waits.filter((w) => w.kind === 'approval' && w.generation === order.generation);
        const wait = step.nodeId !== null ? approvalWait(waits, order.generation, step.nodeId) : open.length === 1 ? open[0] : undefined;
        if (!wait) {
          const why = step.nodeId !== null ? `no approval waits at ${step.nodeId}` : open.length === 0 ? 'no approval waits' : `${open.length} approvals wait: name the nodeId`;
          throw notApplicable(index, why);
        }
        return this.run({ type: 'approval', nodeId: wait.nodeId, decision: step.decision, by: SIMULATION_ACTOR, note: step.note });
      }
      case 'advance':
        return this.advance(step.ms);
      case 'respond':
        throw notApplicable(index, `no call of ${step.nodeId} is out (a respond entry answers the next call of its node)`);
      case 'hold': {
        // A held step (contract 16): the named one, or the only one; resolved as an operator would, by `simulation`.
        const open = this.state.holds;
        const held = step.nodeId ? open.find((h) => h.nodeId === step.nodeId) : open.length === 1 ? open[0] : undefined;
        if (!held) {
          const why = step.nodeId ? `no step is held at ${step.nodeId}` : open.length === 0 ? 'no step is held' : `${open.length} steps are held: name the node`;
          throw notApplicable(index, `no such wait: ${why}`);
        }
        return this.run({ type: 'resolveHold', nodeId: held.nodeId, action: step.action, by: SIMULATION_ACTOR, note: null });
      }
    }
  }

  /** A command, then every call it left due at once (answered as the call executor would after the commit). */
  private async run(command: RunCommand): Promise<void> {
    await this.command(command);
    for (let due = this.nextDue(this.clock, CALL_TIMER_KIND); due; due = this.nextDue(this.clock, CALL_TIMER_KIND)) await this.fire(due);
  }

  /** Moves the clock by `ms`, firing every timer due meanwhile in due order, the clock standing at each due time. */
  private async advance(ms: number): Promise<void> {
    const target = this.clock + ms;
    for (let due = this.nextDue(target); due; due = this.nextDue(target)) {
      this.clock = Math.max(this.clock, due.dueAt);
      await this.fire(due);
    }
    this.clock = Math.max(this.clock, target);
  }

  /** The earliest pending timer due by `until` (due order, then id), optionally of one kind. */
  private nextDue(until: number, kind?: string): NewTimer | undefined {
    let next: NewTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.dueAt > until || (kind !== undefined && t.kind !== kind)) continue;
      if (!next || t.dueAt < next.dueAt || (t.dueAt === next.dueAt && t.id < next.id)) next = t;
    }
    return next;
  }

  /** Fires one timer: a call's wake-up makes the call; any other is a timer command for decide. */
  private async fire(timer: NewTimer): Promise<void> {
    this.timers.delete(timer.id);
    if (timer.kind !== CALL_TIMER_KIND) {
      await this.command({ type: 'timer', timer: { id: timer.id, kind: timer.kind, nodeId: timer.nodeId ?? null, run: timer.run ?? null, payload: timer.payload } });
      return;
    }
    const callId = (timer.payload as { callId?: unknown } | null)?.callId;
    const call = typeof callId === 'string' ? this.calls.get(callId) : undefined;
    if (!call) return;
    this.calls.delete(call.id);
    await this.command({ type: 'answer', call: { ...call, status: 'answered' }, answer: this.answerFor(call) });
  }

  /** The answer of a call: the next unused script entry when it is a `respond` for the call's node, else 200 {}. */
  private answerFor(call: CallRow): ExternalAnswer {
    const next = this.script[this.cursor];
    const scripted = next?.kind === 'respond' && next.nodeId === call.nodeId ? next : null;
    if (scripted) this.cursor += 1;
    const status = scripted ? scripted.status : 200;
    this.callLog.push({ nodeId: call.nodeId, purpose: call.purpose, attempt: call.attempt, method: call.request.method, url: call.request.url, at: this.clock, status, scripted: scripted !== null });
    return { status, body: scripted ? (scripted.body ?? null) : {}, error: null, terminal: false, attempt: call.attempt, idempotencyKey: call.idempotencyKey };
  }

  /** Decides a command and performs what decide waits for until the run rests; then keeps what the slice would have written. */
  private async command(command: RunCommand): Promise<void> {
    this.budget.slice();
    const record = new SliceRecord();
    let input: RunCommand | EffectResult = command;
    for (let n = 0; ; n++) {
      if (n > MAX_EFFECTS_PER_SLICE) throw new DomainError('simulation_runaway', `The flow ran ${n} actions without waiting`, 'invalid_input');
      await this.budget.checkpoint();
      const { state, effects } = decide(this.flow, this.state, { ...input, at: this.clock, newInstanceId: randomUUID() });
      this.state = state;
      for (const effect of effects) {
        this.trace(effect);
        if (!isIoEffect(effect)) record.apply(effect);
      }
      if (!state.awaiting) break;
      input = await this.perform(state.awaiting);
      this.state = withFacts(this.state, this.facts.facts);
    }
    this.keep(record);
  }

  /** The path (nodes the machine entered, End and continue-as-new nodes included) and the events that would be sent. */
  private trace(effect: Effect): void {
    if (effect.type === 'runStep' && effect.phase === 'run' && effect.attempt === 1) this.path.push(effect.nodeId);
    else if (effect.type === 'openWait') this.path.push(effect.wait.nodeId);
    else if (effect.type === 'note' && effect.entry.kind === 'run.continued' && effect.entry.nodeId) this.path.push(effect.entry.nodeId);
    else if (effect.type === 'emit') {
      if (this.flow.nodes.get(effect.event.nodeId)?.def.kind === 'end') this.path.push(effect.event.nodeId);
      this.events.push({ event: effect.event.event, nodeId: effect.event.nodeId, at: this.clock });
    }
  }

  /** What the slice's one statement would have written, kept in memory (a cancel-all leaves the timers of the same write). */
  private keep(record: SliceRecord): void {
    this.timeline.push(...record.timeline);
    if (record.cancelAllTimersAt !== null) this.timers.clear();
    for (const { id } of record.cancelledTimers) this.timers.delete(id);
    for (const timer of record.timers) this.timers.set(timer.id, timer);
    for (const call of record.calls) this.calls.set(call.id, { ...call, status: 'pending' });
  }

  /** Runs the body an I/O effect names (as the run host does, performEffect) over the simulated world. */
  private perform(effect: IoEffect): Promise<EffectResult> {
    return performEffect(this.flow, this.state, effect, (nodeId, attempt, _phase, body) => this.invoke(nodeId, attempt, body));
  }

  /** One body with its ports over the simulated world, its writes (and changes to the order's facts) taken back when it throws. */
  private async invoke<T>(nodeId: string, attempt: number, body: (ctx: StepContext<unknown>) => Promise<T> | T): Promise<Invocation<T>> {
    const at = this.clock;
    const ctx: StepContext<unknown> = { ...stepView(this.flow, this.state, nodeId, attempt), ports: this.ports, clock: { now: () => at } };
    const mark = this.facts.mark();
    try {
      return { ok: await this.world.atomically(async () => body(ctx)) };
    } catch (err) {
      this.facts.restore(mark);
      return { threw: err };
    }
  }
}
