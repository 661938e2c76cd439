// The durable timers a run sets itself: their kinds and ids (an id names one wait run or one retry, so scheduling is idempotent).

/** Timer kinds the run schedules (the call executor's `call.perform` is order-calls.ts's). */
export const TIMER_KINDS = { waitTimeout: 'wait.timeout', stepRetry: 'step.retry' } as const;

/** The deadline of one run of a wait (its timeout, or a delay's end). */
export function waitTimerId(orderId: string, generation: number, nodeId: string, run: number): string {
  return `${orderId}:${generation}:${nodeId}:${run}:timeout`;
}

/** The backoff before `attempt` of one run of a step. */
export function retryTimerId(orderId: string, generation: number, nodeId: string, run: number, attempt: number): string {
  return `${orderId}:${generation}:${nodeId}:${run}:retry:${attempt}`;
}
