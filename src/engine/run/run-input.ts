// What decide is told: a command against the order, or the outcome of the effect it waits for; each with its time.
import type { ExternalAnswer, ExternalRequest, StepResult } from '../node-type.js';
import type { CallRow } from '../runtime/order-calls.js';

/** A durable timer that fired (the claimed `timers` row, as far as the run reads it). */
export interface FiredTimer {
  id: string;
  kind: string;
  nodeId: string | null;
  /** The run of the node the timer was set for. */
  run: number | null;
  payload: unknown;
}

/** The commands of order-runtime.ts, each decided against the order's state. */
export type RunCommand =
  /** The first slice of a recorded order: the run starts at the trigger. */
  | { type: 'start' }
  /** A business event for the open wait.event that waits for it. */
  | { type: 'event'; event: string; payload: Record<string, unknown> }
  /** A person's decision on the open approval at `nodeId`. */
  | { type: 'approval'; nodeId: string; decision: 'approved' | 'rejected'; by: string; note: string | null }
  /** A wait's deadline (timeout, or a delay's end) or a step's retry backoff elapsed. */
  | { type: 'timer'; timer: FiredTimer }
  | { type: 'cancel'; reason: string }
  /** An operator's answer to the hold at `nodeId` (contract 16): run the step again, or apply the rules it would have had. */
  | { type: 'resolveHold'; nodeId: string; action: HoldAction; by: string; note: string | null }
  /** What came back from an external call (a step's or an undo's), recorded once by the command. */
  | { type: 'answer'; call: CallRow; answer: ExternalAnswer };

/** What an operator does with a held step. */
export type HoldAction = 'retry' | 'rollback';

/** Why a step body failed, as plain data (the executor reads it off the error). */
export interface StepFailure {
  message: string;
  /** A terminal error is never retried (`isTerminalFailure`). */
  terminal: boolean;
  /** What an external step got back before failing (http.call: `{ status, body, attempts }`), kept as the node's output. */
  output?: unknown;
  /** When the error asks for a later retry (RetryableError's retryAfterMs), instead of the policy's backoff. */
  retryAfterMs?: number;
}

/** The outcome of the I/O effect decide waits for (RunState.awaiting). */
export type EffectResult =
  | { type: 'stepDone'; result: StepResult }
  /** An external step's `run` asked for a call instead of finishing. */
  | { type: 'stepCalled'; request: ExternalRequest }
  | { type: 'stepFailed'; failure: StepFailure }
  /** The undo ran; an external step undoes remotely with a call made after commit. */
  | { type: 'undone'; call: ExternalRequest | null }
  | { type: 'undoFailed'; message: string }
  | { type: 'abandoned' }
  | { type: 'abandonFailed'; message: string };

/** Given with every input: decide reads no clock and draws no random id. */
export interface InputContext {
  /** The time the input is decided at (epoch ms, from the host's clock). */
  at: number;
  /** The instance id a continue-as-new in this step gives the new run (at most one per input: a new run starts with its trigger step). */
  newInstanceId: string;
}

export type RunInput = (RunCommand | EffectResult) & InputContext;

const RESULT_TYPES: ReadonlySet<string> = new Set(['stepDone', 'stepCalled', 'stepFailed', 'undone', 'undoFailed', 'abandoned', 'abandonFailed']);

export function isEffectResult(input: RunCommand | EffectResult): input is EffectResult {
  return RESULT_TYPES.has(input.type);
}
