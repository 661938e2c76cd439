// The flow the timers scenario publishes: start, wait.delay for `vars.delayMs`, end.
import type { BenchClient } from './http-client.js';

export const TIMER_FLOW = 'bench-timer';

const graph = {
  nodes: [
    { id: 'start', type: 'trigger.api', label: 'Start' },
    { id: 'wait', type: 'wait.delay', label: 'Wait', params: { duration: '1h', durationFrom: 'vars.delayMs' } },
    { id: 'done', type: 'end', label: 'Done', params: { outcome: 'completed' } },
  ],
  edges: [
    { from: 'start', to: 'wait' },
    { from: 'wait', to: 'done' },
  ],
};

/** Saves and publishes the flow through the REST API. */
export async function publishTimerFlow(client: BenchClient): Promise<void> {
  await client.expect(200, 'PUT', `/api/v1/flows/${TIMER_FLOW}`, { name: 'Bench timer', graph });
  await client.expect(200, 'POST', `/api/v1/flows/${TIMER_FLOW}/publish`);
}

/** POST /api/v1/orders body of an order whose timer is due at `dueAt` (epoch ms, the service's clock). */
export function timerOrderBody(n: number, prefix: string, dueAt: number): Record<string, unknown> {
  return {
    flowId: TIMER_FLOW,
    input: { model: 'b2c', channel: 'api', customerId: 'cust_1', externalId: `${prefix}${n}` },
    // Relative to the moment the wait opens, a few ms after now: the recorded due_at is what lateness is measured from.
    vars: { delayMs: Math.max(0, dueAt - Date.now()) },
  };
}
