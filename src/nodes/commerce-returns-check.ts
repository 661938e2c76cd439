// Node type `commerce.returns_check`: whether the order's returns have all ended, so its payout may net them (contract 18).
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { noParams, type NoParams } from './commerce-support.js';

export const commerceReturnsCheck: NodeTypeDef<NoParams> = {
  type: 'commerce.returns_check',
  kind: 'step',
  label: 'Returns settled?',
  description:
    'Branch `settled` when none of the order\'s returns is still open, else `open` (with their ids). The marketplace flow ' +
    'puts it before the payout: on `open` it waits for `return.ended`, which a return sends its parent when it ends ' +
    '(docs/commerce.md "Returns"), and asks again, so the payout nets every refund the returns made.',
  params: noParams,
  branches: () => ['settled', 'open'],
  defaultBranch: null,
  outputs: '{ open: [returnId] }',
  async run(ctx): Promise<StepResult> {
    const open = await ctx.ports.returns.openOf(ctx.order.id);
    return open.length === 0
      ? { branch: 'settled', output: { open }, summary: 'No return open' }
      : { branch: 'open', output: { open }, summary: `Waiting for ${open.length} open return(s): ${open.join(', ')}` };
  },
};
