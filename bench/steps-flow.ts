// The flows the `steps` scenario publishes (six logic.branch steps, or the real commerce steps, then one
// wait.event, then end), the order each bench order starts with, and the one event that completes it.
import type { StepsVariant } from './bench-options.js';
import type { BenchClient } from './http-client.js';
import { orderLines, sellerAccepts, type BenchLine } from './marketplace-order.js';

interface FlowNode {
  id: string;
  type: string;
  label: string;
  params?: Record<string, unknown>;
}

interface FlowEdge {
  from: string;
  to: string;
  branch?: string;
}

export interface StepsFlow {
  variant: StepsVariant;
  flowId: string;
  graph: { nodes: FlowNode[]; edges: FlowEdge[] };
  /** Node ids every completed order must have succeeded exactly once, in order (start and end included). */
  path: string[];
  /** The wait node and the event the bench delivers to it. */
  waitNode: string;
  event: string;
}

/** Logic steps before the wait (the shape: six durable steps, one external event). */
export const LOGIC_STEPS = 6;

const WAIT_TIMEOUT = '30d';

/** Ends a run that took a branch a correct order never takes (the checks then see a failed order). */
const unexpected: FlowNode = { id: 'unexpected', type: 'end', label: 'Unexpected branch', params: { outcome: 'failed', reason: 'Took a branch the bench never expects' } };
const timedOut: FlowNode = { id: 'timed_out', type: 'end', label: 'Wait timed out', params: { outcome: 'failed', reason: 'The bench event never came' } };
const done: FlowNode = { id: 'done', type: 'end', label: 'Done', params: { outcome: 'completed' } };

/** start -> branch_1 .. branch_6 (each `order.id exists`: always true) -> wait.event bench.go -> done. */
function logicFlow(): StepsFlow {
  const branches = Array.from({ length: LOGIC_STEPS }, (_, i) => `branch_${i + 1}`);
  const nodes: FlowNode[] = [
    { id: 'start', type: 'trigger.api', label: 'Start' },
    ...branches.map((id, i) => ({ id, type: 'logic.branch', label: `Branch ${i + 1}`, params: { when: { path: 'order.id', op: 'exists' } } })),
    { id: 'wait', type: 'wait.event', label: 'Wait for the event', params: { event: 'bench.go', timeout: WAIT_TIMEOUT } },
    done,
    unexpected,
    timedOut,
  ];
  const chain = ['start', ...branches, 'wait'];
  const edges: FlowEdge[] = [
    { from: 'start', to: branches[0] },
    ...branches.flatMap((id, i) => [
      { from: id, to: chain[i + 2], branch: 'true' },
      { from: id, to: unexpected.id, branch: 'false' },
    ]),
    { from: 'wait', to: done.id, branch: 'received' },
    { from: 'wait', to: timedOut.id, branch: 'timeout' },
  ];
  return { variant: 'logic', flowId: 'bench-steps-logic', graph: { nodes, edges }, path: [...chain, done.id], waitNode: 'wait', event: 'bench.go' };
}

/**
 * start -> authorize -> split (one third-party seller: awaiting) -> wait.event seller.responded ->
 * seller_accept (accepted) -> reserve -> ship -> capture -> payout -> done. The line carries its
 * unit price, so the order total is known at start (no price step); payout follows capture
 * directly (no return-window wait, so no timer and no clock to advance).
 */
function commerceFlow(): StepsFlow {
  const nodes: FlowNode[] = [
    { id: 'start', type: 'trigger.api', label: 'Start' },
    { id: 'authorize', type: 'commerce.authorize_payment', label: 'Authorize card' },
    { id: 'split', type: 'commerce.split_by_seller', label: 'Split by seller' },
    { id: 'wait', type: 'wait.event', label: 'Wait for the seller', params: { event: 'seller.responded', timeout: WAIT_TIMEOUT } },
    { id: 'accept', type: 'commerce.seller_accept', label: 'Record seller answer', params: { mode: 'from_event' } },
    { id: 'reserve', type: 'commerce.reserve_stock', label: 'Reserve stock' },
    { id: 'ship', type: 'commerce.ship', label: 'Ship' },
    { id: 'capture', type: 'commerce.capture_payment', label: 'Capture payment' },
    { id: 'payout', type: 'commerce.payout', label: 'Schedule payout' },
    done,
    unexpected,
    timedOut,
  ];
  const edges: FlowEdge[] = [
    { from: 'start', to: 'authorize' },
    { from: 'authorize', to: 'split' },
    { from: 'split', to: 'wait', branch: 'awaiting' },
    { from: 'split', to: unexpected.id, branch: 'accepted' },
    { from: 'wait', to: 'accept', branch: 'received' },
    { from: 'wait', to: timedOut.id, branch: 'timeout' },
    { from: 'accept', to: 'reserve', branch: 'accepted' },
    ...['pending', 'partial', 'rejected'].map((branch) => ({ from: 'accept', to: unexpected.id, branch })),
    { from: 'reserve', to: 'ship' },
    { from: 'ship', to: 'capture' },
    { from: 'capture', to: 'payout' },
    { from: 'payout', to: done.id },
  ];
  return {
    variant: 'commerce',
    flowId: 'bench-steps-commerce',
    graph: { nodes, edges },
    path: ['start', 'authorize', 'split', 'wait', 'accept', 'reserve', 'ship', 'capture', 'payout', done.id],
    waitNode: 'wait',
    event: 'seller.responded',
  };
}

export function stepsFlow(variant: StepsVariant): StepsFlow {
  return variant === 'logic' ? logicFlow() : commerceFlow();
}

/** Saves and publishes the flow through the REST API. */
export async function publishStepsFlow(client: BenchClient, flow: StepsFlow): Promise<void> {
  await client.expect(200, 'PUT', `/api/v1/flows/${flow.flowId}`, { name: `Bench steps (${flow.variant})`, graph: flow.graph });
  await client.expect(200, 'POST', `/api/v1/flows/${flow.flowId}/publish`);
}

/**
 * The line of commerce order `n`: one unit price given, of seller_acme (who must accept), on one
 * of `skus` bench SKUs so concurrent orders rarely lock the same stock row (the demo SKU with 1).
 */
export function commerceLine(n: number, skus: number): BenchLine & { unitPrice: number } {
  const [acme] = orderLines(n, skus);
  return { ...acme, unitPrice: 45 };
}

/** POST /api/v1/orders body of steps order `<externalId>`. */
export function stepsOrderBody(flow: StepsFlow, externalId: string, line: BenchLine | null): Record<string, unknown> {
  return {
    flowId: flow.flowId,
    input:
      flow.variant === 'logic'
        ? { model: 'b2c', channel: 'api', customerId: 'cust_1', externalId }
        : { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', contact: { email: 'buyer@example.com' }, externalId, lines: [line] },
  };
}

/** POST /api/v1/orders/:id/events body: the one external event the wait opens for. */
export function stepsEventBody(flow: StepsFlow): Record<string, unknown> {
  return flow.variant === 'logic' ? { event: flow.event, payload: { go: true } } : sellerAccepts('seller_acme');
}
