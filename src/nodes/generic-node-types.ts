// The node types that are not commerce-specific, registered in the catalogue before the commerce ones.
import type { NodeTypeDef } from '../engine/node-type.js';
import { end } from './end.js';
import { humanApproval } from './human-approval.js';
import { httpCall } from './http-call.js';
import { logicBranch } from './logic-branch.js';
import { logicContinue } from './logic-continue.js';
import { logicLoop } from './logic-loop.js';
import { triggerApi } from './trigger-api.js';
import { triggerWebhook } from './trigger-webhook.js';
import { waitDelay } from './wait-delay.js';
import { waitEvent } from './wait-event.js';

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
