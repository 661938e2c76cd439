// Turns a validated signed inbound order body into the start command: flow choice, order input, vars.
import type { InboundOrderBody, OrderInput, OrderMeta } from './order-input-schema.js';

export interface InboundStart {
  /** The body's flowId when it names one; otherwise the caller routes by model and channel. */
  flowId?: string;
  input: OrderInput;
  vars?: Record<string, unknown>;
}

/**
 * Moves the inbound-only fields where the spec keeps them: `source` into `meta.source`,
 * `shipTo` into `meta.shipTo` (top-level values win over the same keys inside `meta`), and
 * marks `meta.via` (`webhook` on the signed route) because the server, not the sender, sets it.
 */
export function inboundToStart(body: InboundOrderBody, via = 'webhook'): InboundStart {
  const { flowId, source, shipTo, vars, meta, ...input } = body;
  const nextMeta: OrderMeta = { ...(meta ?? {}) };
  if (source !== undefined) nextMeta.source = source;
  if (shipTo !== undefined) nextMeta.shipTo = shipTo;
  nextMeta.via = via;
  const start: InboundStart = { input: { ...input, meta: nextMeta } };
  if (flowId !== undefined) start.flowId = flowId;
  if (vars !== undefined) start.vars = vars;
  return start;
}
