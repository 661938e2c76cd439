// propose_flow_change (contract 11) on every built-in flow: each instruction kind answers a graph that validates or problems
// saying why, the stored draft is unchanged, an unreadable instruction is refused with what is understood, a viewer is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import { validateGraph } from '../../../src/engine/validator.js';

let t: TestService;
const operator: Principal = { kind: 'person', id: 'per_flow_agent', role: 'operator', actor: 'flow-agent@example.com', via: 'bearer' };
const viewer: Principal = { kind: 'person', id: 'per_viewer', role: 'viewer', actor: 'viewer@example.com', via: 'bearer' };
const propose = (flowId: string, instruction: string, who: Principal = operator) =>
  t.service.ctx.operations.call('propose_flow_change', who, { flowId, instruction }, { ip: null }) as Promise<{ flowId: string; summary: string; graph: unknown; problems: { nodeId?: string; message: string }[] }>;
const stored = async (flowId: string) => {
  const flow = await t.service.ctx.engine!.flows.get(t.service.ctx.db, flowId);
  return { graph: flow?.draftGraph, updatedAt: flow?.draftUpdatedAt };
};

/** One instruction per kind per built-in flow, phrased as a person would for that flow's steps. */
const INSTRUCTIONS: Record<string, Record<'insert' | 'remove' | 'reconnect' | 'params', string>> = {
  'tpl-storefront-order': { insert: 'add an approval before capture', remove: 'remove the fraud check', reconnect: 'send rejected orders to cancel', params: 'make the fraud review timeout 1 day' },
  'tpl-marketplace-order': { insert: 'notify sellers on rejection', remove: 'remove the wait for sellers', reconnect: 'send orders rejected at trust and safety to cancel', params: 'wait 3 days for sellers' },
  'tpl-b2b-order': { insert: 'add a fraud check after pricing', remove: 'remove the credit limit', reconnect: 'on rejection go to cancelled', params: 'make the approval timeout 1 day' },
  'tpl-omnichannel-order': { insert: 'add a 2 day delay after ship', remove: 'remove the route to nearest store step', reconnect: 'send timed out orders to declined', params: 'wait 10 days for collection' },
  'tpl-pos-sale': { insert: 'add a notification to the buyer after hand over', remove: 'remove the handover', reconnect: 'send failed orders to cancel', params: 'set the charge method to card' },
  'tpl-subscription': { insert: 'add an approval before charge', remove: 'remove the ship box step', reconnect: 'send failed orders to cancel', params: 'set the delay to 60 days' },
  'tpl-purchase-request': { insert: 'add a fraud check after pricing', remove: 'remove the read request lines step', reconnect: 'send rejected requests to failed', params: 'make the approval timeout 5 days' },
  'tpl-reorder': { insert: 'add a notification to operations after book goods in', remove: 'remove the approval', reconnect: 'send escalated approvals to cancel', params: 'wait 21 days for goods' },
};

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('propose_flow_change on the built-in flows', () => {
  for (const [flowId, kinds] of Object.entries(INSTRUCTIONS)) {
    for (const [kind, instruction] of Object.entries(kinds)) {
      it(`${flowId}, ${kind} ("${instruction}"): the answer validates, its problems are the validator's, the draft is unchanged`, async () => {
        const before = await stored(flowId);
        const answer = await propose(flowId, instruction);
        expect(answer.flowId).toBe(flowId);
        expect(answer.problems).toEqual(validateGraph(answer.graph, t.service.ctx.engine!.catalogue));
        expect(answer.problems).toEqual([]);
        expect(answer.graph).not.toEqual(before.graph);
        expect(answer.summary).toMatch(/validates with no problems\. Nothing was saved/);
        expect(await stored(flowId)).toEqual(before);
      });
    }
  }

  it('an incomplete change answers the problems that explain it, and saves nothing', async () => {
    const before = await stored('tpl-storefront-order');
    const answer = await propose('tpl-storefront-order', 'add a delay after ship');
    expect(answer.problems).toEqual([expect.objectContaining({ nodeId: 'delay', message: expect.stringContaining('duration') })]);
    expect(answer.summary).toMatch(/1 validation problem/);
    expect(await stored('tpl-storefront-order')).toEqual(before);
  });

  it('an instruction it cannot read is refused as invalid input listing what it understands; an unknown flow is not found', async () => {
    await expect(propose('tpl-storefront-order', 'make coffee')).rejects.toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(/It understands: insert .*remove .*reconnect .*change a param/),
    });
    await expect(propose('no-such-flow', 'remove the fraud check')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a viewer is refused: the tool needs the operator role', async () => {
    await expect(propose('tpl-storefront-order', 'add an approval before capture', viewer)).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
