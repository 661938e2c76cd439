// Node type `logic.continue`: a continue-as-new point; the run ends here and the runtime starts a new run.
import { z } from 'zod';
import type { NodeTypeDef } from '../engine/node-type.js';

export type LogicContinueParams = Record<string, never>;

export const logicContinue: NodeTypeDef<LogicContinueParams> = {
  type: 'logic.continue',
  kind: 'continue',
  label: 'Continue as new',
  description:
    'Ends the current run and starts a new one on the same order (new instanceId, generation + 1, ' +
    'loop counters reset), e.g. for a subscription\'s next period.',
  params: z.strictObject({}),
  branches: () => [],
  defaultBranch: null,
};
