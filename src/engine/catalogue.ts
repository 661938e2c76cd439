// The node catalogue: the one registry of node types the validator, compiler, runtime and docs read.
import type { NodeTypeDef } from './node-type.js';
import { end } from '../nodes/end.js';
import { humanApproval } from '../nodes/human-approval.js';
import { httpCall } from '../nodes/http-call.js';
import { logicBranch } from '../nodes/logic-branch.js';
import { logicContinue } from '../nodes/logic-continue.js';
import { logicLoop } from '../nodes/logic-loop.js';
import { triggerApi } from '../nodes/trigger-api.js';
import { triggerWebhook } from '../nodes/trigger-webhook.js';
import { waitDelay } from '../nodes/wait-delay.js';
import { waitEvent } from '../nodes/wait-event.js';

/** A read-only set of node types, looked up by type name. */
export interface Catalogue {
  /** The node type, or undefined when the catalogue has none by that name. */
  get(type: string): NodeTypeDef | undefined;
  has(type: string): boolean;
  /** Every node type, in registration order. */
  list(): readonly NodeTypeDef[];
}

/** The node types that are not commerce-specific: triggers, waits, logic, the HTTP call, end. */
export const genericNodeTypes: readonly NodeTypeDef[] = Object.freeze([
  triggerApi,
  triggerWebhook,
  humanApproval,
  waitEvent,
  waitDelay,
  logicBranch,
  logicLoop,
  logicContinue,
  httpCall,
  end,
]);

/** Builds a catalogue; a type name registered twice is a programming error and throws. */
export function createCatalogue(types: readonly NodeTypeDef[]): Catalogue {
  const byType = new Map<string, NodeTypeDef>();
  for (const def of types) {
    if (byType.has(def.type)) throw new Error(`Node type "${def.type}" is registered twice`);
    byType.set(def.type, def);
  }
  const listed = Object.freeze([...byType.values()]);
  return {
    get: (type) => byType.get(type),
    has: (type) => byType.has(type),
    list: () => listed,
  };
}
