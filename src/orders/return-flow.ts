// The built-in flow every return runs (contract 18), and the rule that a return starts only from its order.
import { DomainError } from '../domain/errors.js';

/** machines/tpl-return.json: editable and versioned like any flow; a new return runs on its latest published version. */
export const RETURN_FLOW_ID = 'tpl-return';

/**
 * A start of `flowId` through POST /orders (or a channel, a restart) is refused for the return flow: a return
 * is started from its order, which fixes its lines, its refund and its link (POST /api/v1/orders/<id>/returns).
 */
export function refuseReturnFlow(flowId: string): void {
  if (flowId === RETURN_FLOW_ID)
    throw new DomainError('return_flow', `Flow ${RETURN_FLOW_ID} runs returns: start one from its order (POST /api/v1/orders/<id>/returns)`, 'conflict');
}
