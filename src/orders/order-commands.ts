// Order commands as the caller gives them (REST, live connection): who decides, default reasons, the runtime call.
import type { Principal } from '../auth/principal.js';
import type { Engine } from '../engine/engine-module.js';
import type { DeliverResult } from '../engine/runtime/order-runtime.js';

/**
 * Who an approval decision is recorded as (spec "Decide an approval"): a person or token decides
 * as itself (`by` ignored); only the workspace password may name `by`, by default its own label
 * (`api` on the API, `operator` in the dashboard).
 */
export function approvalActor(principal: Principal, requestedBy: string | undefined): string {
  if (principal.kind === 'workspace') return requestedBy ?? principal.actor;
  return principal.actor;
}

export async function deliverOrderEvent(engine: Engine, orderId: string, event: string, payload: Record<string, unknown> | undefined): Promise<DeliverResult> {
  return engine.runtime.deliverEvent(orderId, event, payload ?? {});
}

export async function decideOrderApproval(
  engine: Engine,
  principal: Principal,
  orderId: string,
  nodeId: string,
  body: { decision: 'approved' | 'rejected'; by?: string; note?: string },
): Promise<void> {
  await engine.runtime.decideApproval(orderId, nodeId, body.decision, approvalActor(principal, body.by), body.note ?? null);
}

/** Retries or rolls back the step held at `nodeId` (contract 16), recorded as the caller; 409 when that node is not held. */
export async function resolveOrderHold(
  engine: Engine,
  principal: Principal,
  orderId: string,
  nodeId: string,
  body: { action: 'retry' | 'rollback'; note?: string },
): Promise<void> {
  await engine.runtime.resolveHold(orderId, nodeId, body.action, principal.actor, body.note ?? null);
}

export async function cancelOrder(engine: Engine, orderId: string, reason: string): Promise<void> {
  await engine.runtime.cancel(orderId, reason);
}
