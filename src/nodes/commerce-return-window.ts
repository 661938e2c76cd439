// Node type `commerce.return_window`: reads the workspace return window and sets vars.returnWindow for a wait.delay.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';

export const returnWindowParams = z.strictObject({
  /** Overrides the workspace's `returnWindowDays` for this flow. */
  days: z.int().min(0).max(365).optional(),
});

export type ReturnWindowParams = z.infer<typeof returnWindowParams>;

const DAY_MS = 86_400_000;

export const commerceReturnWindow: NodeTypeDef<ReturnWindowParams> = {
  type: 'commerce.return_window',
  kind: 'step',
  label: 'Return window',
  description:
    'Starts the return window: the workspace\'s returnWindowDays (or `days`). Sets vars.returnWindow; follow it with ' +
    '`wait.delay` whose `durationFrom` is "vars.returnWindow.ms" to wait it out.',
  params: returnWindowParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ days, ms, endsAt }',
  vars: 'vars.returnWindow = { days, ms, endsAt } (endsAt epoch ms)',
  async run(ctx): Promise<StepResult> {
    const days = ctx.params.days ?? (await ctx.ports.settings.read()).returnWindowDays;
    const ms = days * DAY_MS;
    const endsAt = ctx.clock.now() + ms;
    const window = { days, ms, endsAt };
    return { branch: 'ok', output: window, vars: { returnWindow: window }, summary: `Return window ${days} day(s), until ${new Date(endsAt).toISOString()}` };
  },
};
