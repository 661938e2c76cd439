// Task states as A2A 1.0 names them, which of them are final, and the order status each follows from (spec table).
import { TaskState } from '@a2a-js/sdk';

/** Final states: a task in one of them never changes again (and is cleaned up after 90 days). */
export const FINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export function isFinalState(state: TaskState | undefined): boolean {
  return state !== undefined && FINAL_STATES.has(state);
}

/** The ProtoJSON name of a state (`TASK_STATE_WORKING`), as stored and as the 1.0 wire shows it. */
export function stateName(state: TaskState): string {
  return TaskState[state] ?? 'TASK_STATE_UNSPECIFIED';
}

/** Spec "Order status to A2A task state". */
const ORDER_STATUS_STATES: Record<string, TaskState> = {
  queued: TaskState.TASK_STATE_WORKING,
  running: TaskState.TASK_STATE_WORKING,
  waiting: TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  declined: TaskState.TASK_STATE_REJECTED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  failed: TaskState.TASK_STATE_FAILED,
  rolled_back: TaskState.TASK_STATE_CANCELED,
};

export function stateOfOrderStatus(status: string): TaskState {
  return ORDER_STATUS_STATES[status] ?? TaskState.TASK_STATE_WORKING;
}
