// What decide asks for: plain data. Three kinds wait for the executor (a step body, an undo, an abandon); the rest are writes.
import type { ExternalAnswer } from '../node-type.js';
import type { NewTimer } from '../scheduler/timer-store.js';
import type { NewCall } from '../runtime/order-calls.js';
import type { OutboxEvent } from '../runtime/outbox.js';
import type { TimelineEntry } from '../runtime/timeline.js';
import type { WaitRow } from '../runtime/waits.js';
import type { HoldKey, HoldRow, HoldStatus } from '../runtime/holds.js';
import type { OrderStatus } from '../runtime/run-row.js';

/** How a completed step is undone: on rollback (`compensate`) or on cancel (`cancel`, else `compensate`). */
export type UndoMode = 'compensate' | 'cancel';

/**
 * Run a step body: `run` (attempt n), or `answer` with an external call's answer. Its outcome
 * comes back as stepDone, stepCalled or stepFailed (Temporal: an activity task and its result).
 */
export type RunStepEffect =
  | { type: 'runStep'; nodeId: string; attempt: number; phase: 'run' }
  | { type: 'runStep'; nodeId: string; attempt: number; phase: 'answer'; answer: ExternalAnswer };

/** Undo a completed step (its `compensate`, or on cancel its `cancel`); the outcome comes back as undone or undoFailed. */
export interface UndoEffect {
  type: 'undo';
  nodeId: string;
  mode: UndoMode;
}

/** Release what an external step's `run` prepared before its call (its `abandon`); comes back as abandoned or abandonFailed. */
export interface AbandonEffect {
  type: 'abandon';
  nodeId: string;
}

/** The effects the executor performs and answers with an input: decide waits for that input. */
export type IoEffect = RunStepEffect | UndoEffect | AbandonEffect;

/** Which wait a close is for (the order_waits key within an order). */
export interface WaitKey {
  nodeId: string;
  run: number;
  generation: number;
}

/** The effects that only record: the executor collects them and writes them with the order row in one statement. */
export type WriteEffect =
  | { type: 'openWait'; wait: WaitRow }
  | { type: 'closeWait'; wait: WaitKey; status: string; at: number; by: string | null; note: string | null }
  /** A step held instead of failing the run (contract 16): the order waits for a retry or a rollback. */
  | { type: 'openHold'; hold: HoldRow }
  | { type: 'closeHold'; hold: HoldKey; status: HoldStatus; at: number; by: string | null; note: string | null }
  | { type: 'schedule'; timer: NewTimer }
  | { type: 'cancelTimer'; id: string; at: number }
  /** Every pending timer of the order cancelled (the run ended or was cancelled); timers scheduled in the same write stay. */
  | { type: 'cancelAllTimers'; at: number }
  /** An external call, made after commit by the call executor, woken by its `call.perform` timer. */
  | { type: 'call'; call: NewCall; wakeUp: NewTimer }
  | { type: 'emit'; event: OutboxEvent }
  | { type: 'note'; entry: TimelineEntry }
  /** The order ended with this status and reason (also in the state's order; for observers and simulations). */
  | { type: 'end'; status: OrderStatus; reason: string | null };

export type Effect = IoEffect | WriteEffect;

export function isIoEffect(effect: Effect): effect is IoEffect {
  return effect.type === 'runStep' || effect.type === 'undo' || effect.type === 'abandon';
}
