// Node type `end`: a final point of the flow with an outcome (and reason) the order ends with.
import { z } from 'zod';
import type { NodeTypeDef } from '../engine/node-type.js';

export const END_OUTCOMES = ['completed', 'declined', 'cancelled', 'failed'] as const;
export type EndOutcome = (typeof END_OUTCOMES)[number];

export const endParams = z.strictObject({
  outcome: z.enum(END_OUTCOMES),
  reason: z.string().min(1).max(500).optional(),
});

export type EndParams = z.infer<typeof endParams>;

export const end: NodeTypeDef<EndParams> = {
  type: 'end',
  kind: 'end',
  label: 'End',
  description:
    'Ends the order with an outcome. failed, declined and cancelled first undo the completed steps in reverse; ' +
    'completed undoes nothing.',
  params: endParams,
  branches: () => [],
  defaultBranch: null,
};
