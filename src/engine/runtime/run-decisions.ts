// Small pure rules decide (run/decide.ts) applies: what a failure, an answer or an end decides; also read by external steps.
//
// Kept apart from decide because external steps and adapters use them too (isSuccessStatus,
// mayPassLater): retry or fail, which answer the run waits for, what to undo and in which
// order, how an undo call's failure is handled, and the order's status once the run rests.
import type { RetryPolicy } from '../node-type.js';
import type { NodeRecord } from './node-record.js';
import type { CallRow } from './order-calls.js';

/** After a step failed: try again at `dueAt`, or give up (terminal errors never retry). */
export type FailureDecision = { retry: true; dueAt: number } | { retry: false };

export function decideFailure(policy: RetryPolicy, attempt: number, terminal: boolean, now: number, retryAfterMs?: number): FailureDecision {
  if (terminal || attempt >= policy.attempts) return { retry: false };
  return { retry: true, dueAt: now + (retryAfterMs ?? policy.backoffMs * policy.factor ** (attempt - 1)) };
}

/**
 * Whether the run waits for this call's answer: a step call of the node the machine stands at,
 * in the same generation, run and attempt, with the node still running. Anything else is late.
 */
export function awaitsAnswer(call: CallRow, generation: number, currentNode: string | null, rec: NodeRecord | undefined): boolean {
  if (call.purpose !== 'step' || call.generation !== generation || currentNode !== call.nodeId) return false;
  return !!rec && rec.status === 'running' && rec.runs === call.run && rec.attempt === call.attempt;
}

/** Completed steps to undo, latest first (reverse completion order). */
export function undoOrder(records: Iterable<NodeRecord>): NodeRecord[] {
  return [...records].filter((r) => r.status === 'succeeded' && r.doneSeq !== null).sort((a, b) => b.doneSeq! - a.doneSeq!);
}

/** An HTTP status that means the receiver did what was asked. */
export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** A failed call that may pass on another attempt: no answer, 408, 429 or 5xx (a refusal or a redirect will not). */
export function mayPassLater(status: number | null, terminal: boolean): boolean {
  return !terminal && (status === null || status >= 500 || status === 408 || status === 429);
}

/** What an undo call's answer decides: done, another attempt at `dueAt`, or a recorded failure. */
export type UndoAnswerDecision = { kind: 'done' } | { kind: 'retry'; dueAt: number } | { kind: 'failed' };

export function decideUndoAnswer(status: number | null, terminal: boolean, attempt: number, policy: RetryPolicy, now: number): UndoAnswerDecision {
  if (isSuccessStatus(status)) return { kind: 'done' };
  if (!mayPassLater(status, terminal)) return { kind: 'failed' };
  const next = decideFailure(policy, attempt, false, now);
  return next.retry ? { kind: 'retry', dueAt: next.dueAt } : { kind: 'failed' };
}

/** The status of an unfinished order when its slice stops: waiting while a wait is open, else running (a step due or a call out). */
export function restingStatus(openWaits: number): 'waiting' | 'running' {
  return openWaits > 0 ? 'waiting' : 'running';
}
