// Node type `logic.loop`: the pass counter every cycle in a flow must go through (runtime contract section 5).
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';

export const logicLoopParams = z.strictObject({
  maxPasses: z.int().min(1).max(1000),
});

export type LogicLoopParams = z.infer<typeof logicLoopParams>;

export const logicLoop: NodeTypeDef<LogicLoopParams> = {
  type: 'logic.loop',
  kind: 'logic',
  label: 'Loop',
  description:
    'Lets the flow pass through at most maxPasses times on "next", then takes "exhausted". ' +
    'Counters live in the run and start again on continue-as-new.',
  params: logicLoopParams,
  branches: () => ['next', 'exhausted'],
  defaultBranch: 'next',
  passBranch: 'next',
  outputs: '{ pass, maxPasses } on next (pass counts from 1); { passes, maxPasses } on exhausted.',
  run(ctx): StepResult {
    // ctx.passes[nodeId] counts the `next` passes already taken (the compiler's countPass).
    const used = ctx.passes[ctx.nodeId] ?? 0;
    const { maxPasses } = ctx.params;
    if (used >= maxPasses) {
      return { branch: 'exhausted', output: { passes: used, maxPasses }, summary: `Exhausted after ${used} passes` };
    }
    return { branch: 'next', output: { pass: used + 1, maxPasses }, summary: `Pass ${used + 1} of ${maxPasses}` };
  },
};
