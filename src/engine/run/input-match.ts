// Which part of the run a command is for: the wait an event or approval resolves, the wait a timer ends, the step a retry runs.
//
// decide applies a command only when it matches; the command layer (order-runtime.ts) asks the
// same questions before it opens a slice, to answer the caller (409, the events waited for) and
// to spare the flow's load when nothing would happen.
import type { WaitRow } from '../runtime/waits.js';
import type { HoldRow } from '../runtime/holds.js';
import type { CallRow } from '../runtime/order-calls.js';
import { isFinished } from '../runtime/run-row.js';
import { awaitsAnswer } from '../runtime/run-decisions.js';
import type { FiredTimer } from './run-input.js';
import { currentNode, type RunState } from './run-state.js';

/** The open wait of this generation that waits for `event` (undefined: none does). */
export function eventWait(waits: readonly WaitRow[], generation: number, event: string): WaitRow | undefined {
  return waits.find((w) => w.kind === 'event' && w.generation === generation && w.event === event);
}

/** The events the order waits for now, distinct and sorted (so a caller can fix a misspelt name). */
export function awaitedEvents(waits: readonly WaitRow[], generation: number): string[] {
  const events = waits.filter((w) => w.kind === 'event' && w.generation === generation && w.event !== null).map((w) => w.event as string);
  return [...new Set(events)].sort();
}

/** The open approval of this generation at `nodeId` (undefined: that node waits for none). */
export function approvalWait(waits: readonly WaitRow[], generation: number, nodeId: string): WaitRow | undefined {
  return waits.find((w) => w.kind === 'approval' && w.nodeId === nodeId && w.generation === generation);
}

/** The open hold of this generation at `nodeId` (undefined: that node is not held). */
export function heldAt(holds: readonly HoldRow[], generation: number, nodeId: string): HoldRow | undefined {
  return holds.find((h) => h.nodeId === nodeId && h.generation === generation);
}

/** The open wait whose deadline timer this is (undefined: it was resolved, or the timer is another's). */
export function timeoutWait(waits: readonly WaitRow[], timerId: string): WaitRow | undefined {
  return waits.find((w) => w.timerId === timerId);
}

/** Whether a fired timer still belongs to the run: the order has not ended and the timer was set in this generation. */
export function timerOfRun(order: { status: string; generation: number }, payload: unknown): boolean {
  const generation = (payload as { generation?: unknown } | null)?.generation;
  return !isFinished(order.status) && generation === order.generation;
}

/**
 * The attempt a step's retry timer runs, when it is due: the machine stands at its node, which
 * still runs the attempt before it in the same run of the node. Null for a timer that is spent.
 */
export function retryDue(state: Pick<RunState, 'snapshot' | 'nodes'>, timer: Pick<FiredTimer, 'nodeId' | 'run' | 'payload'>): number | null {
  const attempt = (timer.payload as { attempt?: unknown } | null)?.attempt;
  const rec = timer.nodeId === null ? undefined : state.nodes.get(timer.nodeId);
  if (typeof attempt !== 'number' || !rec || currentNode(state) !== timer.nodeId) return null;
  return rec.status === 'running' && rec.attempt === attempt - 1 && (timer.run === null || timer.run === rec.runs) ? attempt : null;
}

/** Whether the run waits for this call's answer (a later or other call's answer is late: recorded, nothing else). */
export function answerAwaited(state: Pick<RunState, 'order' | 'snapshot' | 'nodes'>, call: CallRow): boolean {
  return !isFinished(state.order.status) && awaitsAnswer(call, state.order.generation, currentNode(state), state.nodes.get(call.nodeId));
}
