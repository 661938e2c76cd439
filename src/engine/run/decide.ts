// The run's rules as one pure function: decide(flow, state, input) -> { state, effects }.
//
// An input is a command (start, event, approval, timer, cancel, a call's answer, a hold's resolution)
// or the outcome of the I/O effect decide asked for last (a step body's result, an undo's, an
// abandon's). decide applies the run rules of runtime contract section 5 (and section 16's held
// steps) to it and works through its agenda (the machine's entry actions, undos, the end of the
// run) until the run rests (it waits, or it ended) or an item needs the executor: then it returns
// that I/O effect last and records it as `state.awaiting`, and the executor answers with the next
// input (Temporal's workflow/activity split).
// The machine is driven with XState's pure initialTransition()/transition(). No I/O, no clock, no
// random: time and a continue-as-new's instance id come with the input.
import { initialTransition, transition } from 'xstate';
import { FINAL_STATES, type CompiledFlow, type CompiledNode, type FlowEvent } from '../compiler.js';
import { DEFAULT_RETRY_POLICY, type ExternalAnswer, type ExternalRequest, type RetryPolicy, type StepContext, type StepResult, type WaitResolution } from '../node-type.js';
import { CALL_TIMER_KIND, callId, callTimerId, idempotencyKey, type CallPurpose, type CallRow } from '../runtime/order-calls.js';
import { isFinished, type OrderStatus } from '../runtime/order-row.js';
import { decideFailure, decideUndoAnswer, restingStatus, undoOrder } from '../runtime/run-decisions.js';
import type { WaitRow } from '../runtime/waits.js';
import { sameHold, type HoldRow, type HoldStatus } from '../runtime/holds.js';
import { onFailureOf } from '../step-policy.js';
import type { Effect, IoEffect, RunStepEffect, UndoEffect, UndoMode } from './effects.js';
import { answerAwaited, approvalWait, eventWait, heldAt, retryDue, timeoutWait, timerOfRun } from './input-match.js';
import { RunDraft } from './run-draft.js';
import { isEffectResult, type EffectResult, type FiredTimer, type HoldAction, type RunCommand, type RunInput } from './run-input.js';
import type { RunState, Task } from './run-state.js';
import { retryTimerId, TIMER_KINDS, waitTimerId } from './run-timers.js';
import { stepView } from './step-view.js';
import { undoBody } from './undo-body.js';

export interface Decision {
  state: RunState;
  /** In order; an I/O effect, when there is one, comes last and is `state.awaiting`. */
  effects: Effect[];
}

/** Bound on the agenda items one input may work through: a flow that never waits is a bug, not a workload. */
const MAX_TASKS_PER_INPUT = 10_000;

/**
 * Decides one input. A command the run has no part for (an event nobody waits for, a timer of a
 * resolved wait or of another generation, a retry already made, any command to an ended order)
 * changes nothing: the same state comes back, with no effects.
 */
export function decide(flow: CompiledFlow, state: RunState, input: RunInput): Decision {
  const d = new RunDraft(flow, state, input.at, input.newInstanceId);
  if (isEffectResult(input)) {
    if (!state.awaiting) throw new Error(`decide got ${input.type} while it waits for nothing`);
    takeResult(d, state.awaiting, input);
  } else {
    if (state.awaiting) throw new Error(`decide got ${input.type} while it waits for ${state.awaiting.type} of ${state.awaiting.nodeId}`);
    if (!takeCommand(d, input)) return { state, effects: [] };
  }
  work(d);
  return { state: d.state(), effects: d.effects };
}

// ---- commands ------------------------------------------------------------------------------

/** Applies a command; false when it does not apply to the run as it stands. */
function takeCommand(d: RunDraft, command: RunCommand): boolean {
  switch (command.type) {
    case 'start':
      if (d.order.started) return false;
      d.order.started = true;
      d.note('order.started', `Order started on ${d.order.flowId} v${d.order.flowVersion}`);
      begin(d);
      return true;
    case 'event': {
      const wait = isFinished(d.order.status) ? undefined : eventWait(d.waits, d.order.generation, command.event);
      if (!wait) return false;
      d.note('event.received', `Event ${command.event} received`, wait.nodeId, { event: command.event });
      resolveWait(d, wait, { kind: 'event', event: command.event, payload: command.payload, at: d.at }, 'received');
      return true;
    }
    case 'approval': {
      const { nodeId, decision, by, note } = command;
      const wait = isFinished(d.order.status) ? undefined : approvalWait(d.waits, d.order.generation, nodeId);
      if (!wait) return false;
      d.note('approval.decided', `${decision === 'approved' ? 'Approved' : 'Rejected'} by ${by}${note ? `: ${note}` : ''}`, nodeId, { decision, by });
      resolveWait(d, wait, { kind: 'approval', decision, by, note, at: d.at }, decision, by, note);
      return true;
    }
    case 'timer':
      return fireTimer(d, command.timer);
    case 'cancel':
      if (isFinished(d.order.status)) return false;
      cancel(d, command.reason);
      return true;
    case 'resolveHold': {
      const held = isFinished(d.order.status) ? undefined : heldAt(d.holds, d.order.generation, command.nodeId);
      if (!held) return false;
      resolveHold(d, held, command.action, command.by, command.note);
      return true;
    }
    case 'answer':
      takeAnswer(d, command.call, command.answer);
      return true;
  }
}

/** A wait's deadline ends the wait (a delay elapses, an approval escalates, an event wait times out); a retry timer runs the step again. */
function fireTimer(d: RunDraft, timer: FiredTimer): boolean {
  if (!timerOfRun(d.order, timer.payload)) return false;
  if (timer.kind === TIMER_KINDS.waitTimeout) {
    const wait = timeoutWait(d.waits, timer.id);
    if (!wait) return false;
    if (wait.kind === 'delay') resolveWait(d, wait, { kind: 'elapsed', at: d.at }, 'elapsed');
    else {
      d.note('wait.timeout', `${wait.title ?? wait.nodeId}: timed out`, wait.nodeId);
      const approval = wait.kind === 'approval';
      resolveWait(d, wait, { kind: 'timeout', at: d.at }, approval ? 'escalated' : 'timeout', approval ? 'timeout' : null);
    }
    return true;
  }
  if (timer.kind === TIMER_KINDS.stepRetry) {
    const attempt = retryDue(d, timer);
    if (attempt === null || timer.nodeId === null) return false;
    d.agenda.unshift({ do: 'runStep', nodeId: timer.nodeId, attempt });
    return true;
  }
  return false;
}

/**
 * An external call answered. A step's call the run waits for goes to the step's `answer`; any
 * other step answer is late (only the timeline hears of it); an undo call's answer is recorded and
 * a failure that may pass is tried again by the node's retry policy.
 */
function takeAnswer(d: RunDraft, call: CallRow, answer: ExternalAnswer): void {
  const label = d.label(call.nodeId);
  if (call.purpose === 'undo') {
    const policy = retryPolicyOf(d.compiled(call.nodeId));
    const decision = decideUndoAnswer(answer.status, answer.terminal, call.attempt, policy, d.at);
    if (decision.kind === 'done') d.note('node.undo_call', `Undo of ${label}: ${answerText(answer)}`, call.nodeId, { attempt: call.attempt, status: answer.status });
    else if (decision.kind === 'retry') {
      d.note('node.undo_retry', `Undo of ${label} failed (attempt ${call.attempt} of ${policy.attempts}): ${answerText(answer)}; retrying`, call.nodeId, {
        attempt: call.attempt,
        retryAt: decision.dueAt,
      });
      recordCall(d, call.nodeId, call.run, 'undo', call.attempt + 1, call.request, decision.dueAt);
    } else d.note('node.undo_failed', `Undoing ${label} failed: ${answerText(answer)}`, call.nodeId, { attempt: call.attempt, status: answer.status });
    return;
  }
  if (answerAwaited(d, call)) {
    d.note('node.answer', `${label}: ${answerText(answer)} (attempt ${call.attempt})`, call.nodeId, { attempt: call.attempt, status: answer.status });
    d.agenda.unshift({ do: 'answerStep', nodeId: call.nodeId, attempt: call.attempt, answer });
    return;
  }
  d.note('node.late_answer', `Late answer for ${label} (attempt ${call.attempt}): ${answerText(answer)}; changed nothing`, call.nodeId, {
    attempt: call.attempt,
    status: answer.status,
  });
}

// ---- the agenda ----------------------------------------------------------------------------

/** Works the agenda until an item waits for the executor or nothing is left; an idle run gets its resting status. */
function work(d: RunDraft): void {
  for (let n = 0; !d.awaiting; n++) {
    if (n > MAX_TASKS_PER_INPUT) throw new Error(`flow ${d.flow.flowKey} ran ${n} actions without waiting`);
    const task = d.agenda.shift();
    if (task) perform(d, task);
    else if (!settle(d)) break;
  }
  if (!d.awaiting && !isFinished(d.order.status)) d.order.status = restingStatus(d.waits.length + d.holds.length);
}

function perform(d: RunDraft, task: Task): void {
  switch (task.do) {
    case 'send':
      send(d, task.event);
      return;
    case 'runStep':
      startStep(d, { type: 'runStep', nodeId: task.nodeId, attempt: task.attempt, phase: 'run' });
      return;
    case 'answerStep':
      startStep(d, { type: 'runStep', nodeId: task.nodeId, attempt: task.attempt, phase: 'answer', answer: task.answer });
      return;
    case 'openWait':
      openWait(d, task.nodeId);
      return;
    case 'abandon':
      d.await({ type: 'abandon', nodeId: task.nodeId });
      return;
    case 'undo': {
      const [nodeId, ...rest] = task.queue;
      if (nodeId === undefined) {
        d.order.rollback = { outcome: task.outcome, error: task.errors.length ? task.errors.join('; ') : null };
        return;
      }
      // The task stays first while its undo is out: the outcome adds to its errors, then the next undo follows.
      d.agenda.unshift({ ...task, queue: rest });
      d.await({ type: 'undo', nodeId, mode: task.mode });
      return;
    }
    case 'end':
      end(d, task);
      return;
    case 'cancelled':
      cancelled(d, task.reason);
      return;
  }
}

/** The outcome of the I/O effect decide waited for. */
function takeResult(d: RunDraft, awaiting: IoEffect, result: EffectResult): void {
  if (awaiting.type === 'runStep') stepOutcome(d, awaiting, result);
  else if (awaiting.type === 'undo') undoOutcome(d, awaiting, result);
  else if (result.type === 'abandonFailed') d.note('node.undo_failed', `Releasing what ${d.label(awaiting.nodeId)} prepared failed: ${result.message}`, awaiting.nodeId);
  else if (result.type !== 'abandoned') throw unexpected(awaiting, result);
}

function unexpected(awaiting: IoEffect, result: EffectResult): Error {
  return new Error(`decide waits for the outcome of ${awaiting.type} ${awaiting.nodeId}, not ${result.type}`);
}

// ---- the machine ---------------------------------------------------------------------------

/** Starts a run at the trigger (the first start, or a continue-as-new). */
function begin(d: RunDraft): void {
  const [snapshot, actions] = initialTransition(d.flow.machine);
  d.snapshot = snapshot;
  queueActions(d, actions);
}

/** Sends an event to the machine; one it does not accept (or a finished machine) changes nothing. */
function send(d: RunDraft, event: FlowEvent): void {
  if (!d.snapshot || d.snapshot.status === 'done') return;
  const [next, actions] = transition(d.flow.machine, d.snapshot, event);
  d.snapshot = next;
  queueActions(d, actions);
}

/** The transition's entry actions (a step to run, a wait to open) come before anything already on the agenda. */
function queueActions(d: RunDraft, actions: readonly { type: string; params?: unknown }[]): void {
  const tasks: Task[] = [];
  for (const action of actions) {
    const { nodeId } = action.params as { nodeId: string };
    if (action.type === 'runStep') tasks.push({ do: 'runStep', nodeId, attempt: 1 });
    else if (action.type === 'openWait') tasks.push({ do: 'openWait', nodeId });
  }
  d.agenda.unshift(...tasks);
}

// ---- steps ---------------------------------------------------------------------------------

/** Marks the node running (a new run of it on a first attempt) and asks the executor to run its body. */
function startStep(d: RunDraft, effect: RunStepEffect): void {
  const rec = d.node(effect.nodeId);
  if (effect.attempt === 1 && effect.phase === 'run') {
    rec.runs += 1;
    rec.startedAt = d.at;
    rec.endedAt = null;
    rec.error = null;
    rec.holds = 0;
    // A new run makes its ids with the node's own id.
    delete rec.idAs;
  }
  rec.attempt = effect.attempt;
  rec.status = 'running';
  d.await(effect);
}

/** A step body's outcome: done (the machine moves on), a call (the node stays running until its answer), or failed. */
function stepOutcome(d: RunDraft, step: RunStepEffect, result: EffectResult): void {
  const { nodeId, attempt } = step;
  if (result.type === 'stepDone') {
    completeNode(d, nodeId, result.result);
    d.agenda.unshift({ do: 'send', event: { type: 'step.done', nodeId, branch: result.result.branch } });
  } else if (result.type === 'stepCalled') {
    if (step.phase === 'answer') throw new Error(`node type ${d.compiled(nodeId).def.type} answered a call with another call`);
    recordCall(d, nodeId, d.peek(nodeId).runs, 'step', attempt, result.request, d.at);
  } else if (result.type === 'stepFailed') {
    const { message, terminal, output, retryAfterMs } = result.failure;
    const compiled = d.compiled(nodeId);
    const rec = d.node(nodeId);
    const policy = retryPolicyOf(compiled);
    rec.error = message;
    if (output !== undefined) rec.output = output;
    // A retryable failure with attempts left waits for its backoff timer; the node stays running.
    const decision = decideFailure(policy, attempt, terminal, d.at, retryAfterMs);
    if (decision.retry) {
      const { id: orderId, generation } = d.order;
      d.effect({
        type: 'schedule',
        timer: {
          id: retryTimerId(orderId, generation, d.idOf(nodeId), rec.runs, attempt + 1),
          orderId,
          kind: TIMER_KINDS.stepRetry,
          nodeId,
          run: rec.runs,
          dueAt: decision.dueAt,
          payload: { attempt: attempt + 1, generation },
        },
      });
      d.note('node.retry', `${d.label(nodeId)} failed (attempt ${attempt} of ${policy.attempts}): ${message}; retrying`, nodeId, { attempt, retryAt: decision.dueAt });
      return;
    }
    // The last attempt, or a terminal error: the node failed; what an external step prepared is released, then the machine takes the failure.
    rec.status = 'failed';
    rec.endedAt = d.at;
    d.note('node.failed', `${d.label(nodeId)} failed: ${message}`, nodeId, { attempt, terminal });
    d.lastFailure = { nodeId, type: compiled.def.type, error: message };
    if (holdsOnFailure(compiled)) hold(d, nodeId, message, terminal);
    else failStep(d, nodeId, terminal);
  } else throw unexpected(step, result);
}

/** The machine takes a step's failure (its failure branch, else rollback); what an external step prepared is released first. */
function failStep(d: RunDraft, nodeId: string, terminal: boolean): void {
  const next: Task[] = d.compiled(nodeId).def.abandon ? [{ do: 'abandon', nodeId }] : [];
  d.agenda.unshift(...next, { do: 'send', event: { type: 'step.failed', nodeId, terminal } });
}

/** A finished step (or a resolved wait): its record, the run's vars and totals, the timeline, the event it emits. */
function completeNode(d: RunDraft, nodeId: string, result: StepResult): void {
  const def = d.compiled(nodeId).def;
  const rec = d.node(nodeId);
  rec.status = 'succeeded';
  rec.output = result.output ?? null;
  rec.summary = result.summary ?? rec.summary;
  rec.error = null;
  rec.endedAt = d.at;
  rec.branches = rec.branches.includes(result.branch) ? rec.branches : [...rec.branches, result.branch];
  // The completion order: rollback undoes in reverse of it.
  d.order.stepSeq += 1;
  rec.doneSeq = d.order.stepSeq;
  d.setVars(result.vars);
  if (result.totals) Object.assign(d.order, { subtotal: result.totals.subtotal, tax: result.totals.tax, total: result.totals.total });
  if (def.kind !== 'logic') d.note('node.succeeded', result.summary ?? `${d.label(nodeId)} done (${result.branch})`, nodeId, { branch: result.branch });
  if (result.emit) d.emit({ event: result.emit.event, nodeId, run: rec.runs, data: { node: { id: nodeId, type: def.type, output: result.output ?? null }, ...result.emit.data } });
}

function retryPolicyOf(compiled: CompiledNode): RetryPolicy {
  return compiled.def.retryPolicy?.(compiled.params) ?? compiled.def.retry ?? DEFAULT_RETRY_POLICY;
}

// ---- external calls ------------------------------------------------------------------------

/** Records an external call (made after commit by the call executor) with its wake-up timer due at `dueAt`. */
function recordCall(d: RunDraft, nodeId: string, run: number, purpose: CallPurpose, attempt: number, request: ExternalRequest, dueAt: number): void {
  const { id: orderId, generation } = d.order;
  // A node a move renamed mid-run keeps the ids it called out with (contract 15): the same Idempotency-Key for every attempt.
  const idAs = d.idOf(nodeId);
  const id = callId(orderId, generation, idAs, run, purpose, attempt);
  d.effect({
    type: 'call',
    call: { id, orderId, generation, nodeId, run, purpose, attempt, idempotencyKey: idempotencyKey(orderId, generation, idAs, run, purpose), request },
    wakeUp: { id: callTimerId(id), orderId, kind: CALL_TIMER_KIND, nodeId, run, dueAt, payload: { callId: id, generation } },
  });
  const what = purpose === 'undo' ? `Undo of ${d.label(nodeId)}` : d.label(nodeId);
  d.note('node.call', `${what}: ${request.method} ${callTarget(request.url)} (attempt ${attempt})`, nodeId, { attempt, purpose, method: request.method, url: callTarget(request.url) });
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
  return answer.status !== null ? `HTTP ${answer.status}` : (answer.error ?? 'no answer');
}

// ---- waits ---------------------------------------------------------------------------------

/** wait() must build its WaitSpec from the run alone: inside decide there are no ports (no I/O). */
const NO_PORTS = new Proxy(
  {},
  {
    get(_target, port) {
      throw new Error(`a wait() used the port ${String(port)}: waits are opened by decide, which does no I/O`);
    },
  },
) as StepContext<unknown>['ports'];

/** Opens the wait the machine entered: its record, the wait row, its deadline timer and the timeline entry. */
function openWait(d: RunDraft, nodeId: string): void {
  const compiled = d.compiled(nodeId);
  if (!compiled.def.wait) throw new Error(`node type ${compiled.def.type} has no wait()`);
  const rec = d.node(nodeId);
  rec.runs += 1;
  delete rec.idAs;
  rec.status = 'waiting';
  rec.startedAt = d.at;
  rec.endedAt = null;
  const at = d.at;
  const spec = compiled.def.wait({ ...stepView(d.flow, d, nodeId, 1), ports: NO_PORTS, clock: { now: () => at } });
  const { id: orderId, generation } = d.order;
  const deadline = spec.timeoutMs === null ? null : at + spec.timeoutMs;
  let timerId: string | null = null;
  if (deadline !== null) {
    timerId = waitTimerId(orderId, generation, nodeId, rec.runs);
    d.effect({ type: 'schedule', timer: { id: timerId, orderId, kind: TIMER_KINDS.waitTimeout, nodeId, run: rec.runs, dueAt: deadline, payload: { generation } } });
  }
  const title = spec.title ?? (spec.kind === 'event' ? `Waiting for ${spec.event}` : spec.kind === 'delay' ? `Delay until ${new Date(deadline ?? at).toISOString()}` : d.label(nodeId));
  const wait: WaitRow = {
    orderId,
    nodeId,
    run: rec.runs,
    generation,
    kind: spec.kind,
    title,
    event: spec.event ?? null,
    assignee: spec.assignee ?? null,
    amountMinor: spec.amount ?? null,
    deadline,
    since: at,
    status: 'open',
    decidedBy: null,
    note: null,
    closedAt: null,
    timerId,
  };
  d.waits = [...d.waits, wait].sort((a, b) => a.since - b.since || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  d.effect({ type: 'openWait', wait });
  d.note('wait.opened', title, nodeId, { kind: spec.kind, event: spec.event ?? null, deadline });
}

/** Resolves an open wait (event, decision, timeout or elapsed delay): the node type's resolveWait picks the branch. */
function resolveWait(d: RunDraft, wait: WaitRow, resolution: WaitResolution, closeAs: string, by: string | null = null, note: string | null = null): void {
  const { def, params } = d.compiled(wait.nodeId);
  if (!def.resolveWait) throw new Error(`node type ${def.type} has no resolveWait()`);
  const result = def.resolveWait(params, resolution);
  closeWait(d, wait, closeAs, by, note);
  // Its deadline timer fired already when the timeout or the delay resolved it.
  if (wait.timerId && resolution.kind !== 'timeout' && resolution.kind !== 'elapsed') d.effect({ type: 'cancelTimer', id: wait.timerId, at: d.at });
  completeNode(d, wait.nodeId, result);
  d.agenda.unshift({ do: 'send', event: { type: 'wait.resolved', nodeId: wait.nodeId, branch: result.branch } });
}

function closeWait(d: RunDraft, wait: WaitRow, status: string, by: string | null = null, note: string | null = null): void {
  const { nodeId, run, generation } = wait;
  d.waits = d.waits.filter((w) => !(w.nodeId === nodeId && w.run === run && w.generation === generation));
  d.effect({ type: 'closeWait', wait: { nodeId, run, generation }, status, at: d.at, by, note });
}

/** Closes every open wait and hold and cancels the order's pending timers (the run ended or was cancelled). */
function closeAllWaits(d: RunDraft, status: string): void {
  for (const wait of d.waits) closeWait(d, wait, status);
  for (const held of d.holds) closeHold(d, held, 'cancelled');
  d.effect({ type: 'cancelAllTimers', at: d.at });
}

// ---- holds (contract 16) -------------------------------------------------------------------

/** A step with `onFailure: "hold"` whose failure no wired failure branch takes. */
function holdsOnFailure(compiled: CompiledNode): boolean {
  const { failureBranch } = compiled.def;
  return onFailureOf(compiled.params) === 'hold' && !(failureBranch !== undefined && compiled.wired.includes(failureBranch));
}

/**
 * Holds the failed step instead of failing the run: nothing is undone or released and the machine
 * is not told, so the run stays at the node and the order waits; the hold is recorded and sent as
 * order.held (its id includes the hold's number, so each hold is a new delivery).
 */
function hold(d: RunDraft, nodeId: string, error: string, terminal: boolean): void {
  const rec = d.node(nodeId);
  rec.holds += 1;
  const { id: orderId, generation } = d.order;
  const title = `${d.label(nodeId)} failed: ${error}`;
  const held: HoldRow = { orderId, nodeId, run: rec.runs, generation, number: rec.holds, title, error, terminal, since: d.at, status: 'open', resolvedBy: null, note: null, closedAt: null };
  d.holds = [...d.holds, held];
  d.effect({ type: 'openHold', hold: held });
  d.emit({ event: 'order.held', nodeId, run: rec.runs, occurrence: rec.holds, data: { node: { id: nodeId, type: d.compiled(nodeId).def.type, error } } });
  d.note('node.held', `${title}: held for a retry or a rollback`, nodeId, { hold: rec.holds, attempt: rec.attempt, terminal });
}

/**
 * An operator's answer to a hold: `retry` continues the same run of the step (its next attempt, so
 * an external step keeps its Idempotency-Key); `rollback` gives the machine the failure the hold
 * kept from it, so the rules the step would have had apply (release, then the failure branch or rollback).
 */
function resolveHold(d: RunDraft, held: HoldRow, action: HoldAction, by: string, note: string | null): void {
  const { nodeId } = held;
  const label = d.label(nodeId);
  const why = note ? `: ${note}` : '';
  closeHold(d, held, action === 'retry' ? 'retried' : 'rolled_back', by, note);
  if (action === 'retry') {
    const rec = d.node(nodeId);
    rec.endedAt = null;
    d.note('node.hold_retried', `${label}: retry by ${by}${why}`, nodeId, { hold: held.number, attempt: rec.attempt + 1, by });
    d.agenda.unshift({ do: 'runStep', nodeId, attempt: rec.attempt + 1 });
    return;
  }
  d.note('node.hold_rolled_back', `${label}: rollback by ${by}${why}`, nodeId, { hold: held.number, by });
  d.lastFailure = { nodeId, type: d.compiled(nodeId).def.type, error: held.error };
  failStep(d, nodeId, held.terminal);
}

function closeHold(d: RunDraft, held: HoldRow, status: HoldStatus, by: string | null = null, note: string | null = null): void {
  const { nodeId, run, generation, number } = held;
  d.holds = d.holds.filter((h) => !sameHold(h, held));
  d.effect({ type: 'closeHold', hold: { nodeId, run, generation, number }, status, at: d.at, by, note });
}

// ---- ending a run --------------------------------------------------------------------------

/**
 * Once the machine reached a final state and the order has not ended: continue-as-new, or undo
 * what the outcome asks to undo and end. False when there is nothing to do (the run rests).
 */
function settle(d: RunDraft): boolean {
  const snapshot = d.snapshot;
  // An order that already ended (a late answer, an undo call's answer) only records.
  if (!snapshot || snapshot.status !== 'done' || isFinished(d.order.status)) return false;
  const output = snapshot.output;
  const endNode = typeof snapshot.value === 'string' ? snapshot.value : '';
  if (output.outcome === 'continue') {
    continueAsNew(d, endNode);
    return true;
  }
  // A cancel ends the order itself (its `cancelled` item).
  if (output.outcome === 'cancelled' && endNode === FINAL_STATES.cancelled) return false;
  if (endNode === FINAL_STATES.failed || endNode === FINAL_STATES.rolledBack) {
    // A step failed with no failure branch: every completed step is undone in reverse, then order.failed.
    const status = endNode === FINAL_STATES.failed ? 'failed' : 'rolled_back';
    d.agenda.push(...undoTasks(d, 'compensate', status), { do: 'end', endNode, status, reason: d.lastFailure?.error ?? 'A step failed', failed: true });
  } else {
    // An End node: `completed` undoes nothing; failed, declined and cancelled undo in reverse first.
    const status: OrderStatus = output.outcome;
    d.agenda.push(...(status === 'completed' ? [] : undoTasks(d, 'compensate', status)), { do: 'end', endNode, status, reason: output.reason, failed: false });
  }
  return true;
}

/** The undo of every completed step that has something to undo, latest completion first; none when nothing has. */
function undoTasks(d: RunDraft, mode: UndoMode, outcome: string): Task[] {
  const queue = undoOrder(d.nodes.values())
    .map((rec) => rec.nodeId)
    .filter((nodeId) => {
      const compiled = d.flow.nodes.get(nodeId);
      return compiled !== undefined && undoBody(compiled.def, compiled.params, mode) !== undefined;
    });
  return queue.length ? [{ do: 'undo', mode, outcome, queue, errors: [] }] : [];
}

/** An undo's outcome: the node is rolled back (an external one by a call made after commit), or the failure is kept for `rollback.error`. */
function undoOutcome(d: RunDraft, undo: UndoEffect, result: EffectResult): void {
  const { nodeId } = undo;
  if (result.type === 'undone') {
    const rec = d.node(nodeId);
    if (result.call) recordCall(d, nodeId, rec.runs, 'undo', 1, result.call, d.at);
    rec.status = 'rolled_back';
    d.note('node.rolled_back', `${d.label(nodeId)} undone`, nodeId);
  } else if (result.type === 'undoFailed') {
    const task = d.agenda[0];
    if (task?.do !== 'undo') throw new Error(`an undo of ${nodeId} came back outside an undo round`);
    d.agenda[0] = { ...task, errors: [...task.errors, `${nodeId}: ${result.message}`] };
    d.note('node.undo_failed', `Undoing ${d.label(nodeId)} failed: ${result.message}`, nodeId);
  } else throw unexpected(undo, result);
}

/** The order ends: its event, waits and timers closed, untaken nodes skipped, the final status. */
function end(d: RunDraft, task: Extract<Task, { do: 'end' }>): void {
  const { endNode, status, reason } = task;
  if (task.failed) {
    const failure = d.lastFailure;
    const from = failure?.nodeId ?? endNode;
    const node = failure ? { id: failure.nodeId, type: failure.type, error: failure.error } : null;
    d.emit({ event: 'order.failed', nodeId: from, run: d.peek(from).runs, data: { outcome: 'failed', reason, node } });
  } else {
    const rec = d.node(endNode);
    rec.runs += 1;
    rec.status = 'succeeded';
    rec.startedAt = rec.endedAt = d.at;
    d.emit({ event: `order.${status}`, nodeId: endNode, run: rec.runs, data: { outcome: status, reason } });
  }
  closeAllWaits(d, 'cancelled');
  skipUntaken(d);
  d.order.status = status;
  d.order.reason = reason;
  d.note(`order.${status}`, reason ? `Order ${status.replace('_', ' ')}: ${reason}` : `Order ${status.replace('_', ' ')}`, null);
  d.effect({ type: 'end', status, reason });
}

/** Continue-as-new: a new run (the input's instance id, generation + 1) from the trigger; vars kept, records and pass counters start again. */
function continueAsNew(d: RunDraft, atNode: string): void {
  d.resetNodes();
  d.order.generation += 1;
  d.order.instanceId = d.newInstanceId;
  d.order.stepSeq = 0;
  d.note('run.continued', `Continued as new run (generation ${d.order.generation})`, atNode, { instanceId: d.order.instanceId });
  begin(d);
}

/**
 * Cancel: waits and holds closed (approvals marked cancelled) and timers cancelled; a step whose
 * call is out, or a held one (its hold released nothing), releases what it prepared (abandon);
 * completed steps are undone in reverse by their `cancel` (else `compensate`; `cancel: null` undoes
 * nothing); then the order ends cancelled.
 */
function cancel(d: RunDraft, reason: string): void {
  const abandons: Task[] = [];
  for (const rec of d.nodes.values()) {
    const open = rec.status === 'running' || heldAt(d.holds, d.order.generation, rec.nodeId) !== undefined;
    if (open && d.flow.nodes.get(rec.nodeId)?.def.abandon) abandons.push({ do: 'abandon', nodeId: rec.nodeId });
  }
  closeAllWaits(d, 'cancelled');
  d.agenda.push(...abandons, ...undoTasks(d, 'cancel', 'cancelled'), { do: 'cancelled', reason });
}

function cancelled(d: RunDraft, reason: string): void {
  if (d.snapshot && d.snapshot.status !== 'done') [d.snapshot] = transition(d.flow.machine, d.snapshot, { type: 'order.cancel' });
  skipUntaken(d);
  d.order.status = 'cancelled';
  d.order.reason = reason;
  d.emit({ event: 'order.cancelled', nodeId: 'cancel', run: 1, data: { outcome: 'cancelled', reason } });
  d.note('order.cancelled', `Order cancelled: ${reason}`);
  d.effect({ type: 'end', status: 'cancelled', reason });
}

/** Every node of the flow that did not finish in this run is skipped (a branch never taken, a wait cancelled, a step abandoned). */
function skipUntaken(d: RunDraft): void {
  for (const nodeId of d.flow.nodes.keys()) {
    const status = d.peek(nodeId).status;
    if (status === 'pending' || status === 'waiting' || status === 'running') {
      const rec = d.node(nodeId);
      rec.status = 'skipped';
      rec.endedAt ??= d.at;
    }
  }
}
