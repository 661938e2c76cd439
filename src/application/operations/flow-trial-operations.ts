// Trying a flow before it goes live (contract 14): simulate one order, list the paths, diff two versions with their live orders.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { callerKey } from '../../auth/caller-key.js';
import type { FlowSimulations } from '../../orders/flow-trial/flow-simulations.js';
import { simulateBodyShape } from '../../orders/flow-trial/simulation-request.js';
import { simulationAnswerSchema } from '../../orders/flow-trial/simulation-answer.js';
import { flowDiffSchema, flowPathsSchema, readFlowDiff, readFlowPaths, type FlowImpactDeps } from '../../orders/flow-trial/flow-impact.js';

const flowId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit');
const version = z.coerce.number().int().positive().max(2_147_483_647);

/** A diff's `to`: a published version, or `draft`. */
export const diffTarget = z.union([z.literal('draft'), version]);

export const SIMULATE_EXAMPLE = {
  id: 'tpl-marketplace-order',
  input: { model: 'marketplace' as const, channel: 'marketplace' as const, title: 'Pan and tent', lines: [{ sku: 'PAN-CAST-10', qty: 2 }, { sku: 'TENT-2P', qty: 1 }] },
  script: [
    { event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' } },
    { event: 'seller.responded', payload: { sellerId: 'seller_bolt', decision: 'accepted' } },
    { advance: '14d' },
  ],
};

export function flowTrialOperations(deps: FlowImpactDeps & { simulations: FlowSimulations }) {
  return {
    simulateFlow: defineOperation({
      name: 'simulateFlow',
      summary: 'Run one order through a flow without keeping anything',
      description:
        'Runs the saved draft (default), a published `version` or an unsaved `graph` with `input` and `vars` as POST /api/v1/orders takes them, ' +
        "with the engine's rules and the steps' own code against the workspace's products, sellers, stock and prices, on a simulated clock that starts at the service's now. " +
        'No order, timer, notification, outbound call, webhook, stock, payment or audit row survives. `script` is applied in order each time the run stops and waits: ' +
        '`{ event, payload? }`, `{ decision, nodeId?, note? }` (recorded by `simulation`), `{ advance: "2d" }` (timers fire only on advance), ' +
        '`{ respond: nodeId, status, body? }` (answers the next call of that http.call; any other call answers 200 {}), `{ hold?, action }`. ' +
        '`failSteps` names steps that fail at once as if their retries were exhausted. The run stops when it ends, when the script is used up while it waits, ' +
        'or past 1,000 slices or 2 s of CPU (400 saying which). An entry that does not apply is a 400 naming its index; a graph with problems a 400 with them as issues. ' +
        'A caller runs at most 2 at a time and 20 per minute (429 with Retry-After).',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({ id: flowId, ...simulateBodyShape }),
      output: simulationAnswerSchema,
      example: SIMULATE_EXAMPLE,
      run: async (caller, input) => {
        const { id, ...body } = input;
        return deps.simulations.simulate(callerKey(caller), id, body);
      },
    }),
    getFlowPaths: defineOperation({
      name: 'getFlowPaths',
      summary: 'Every way an order can go through a flow',
      description:
        'From the compiled machine of the draft (default) or of published `version`: each path from the trigger to an End or continue-as-new node, ' +
        'following each edge back into a loop at most once, with the branch taken out of each node; `unreachable` lists nodes no path reaches. ' +
        'Stops at 500 paths (`truncated: true`). A draft with problems is a 400 with them as issues.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: flowId, version: version.optional().describe('A published version; default the draft') }),
      output: flowPathsSchema,
      example: { id: 'tpl-marketplace-order' },
      run: async (_caller, input) => readFlowPaths(deps, input.id, input.version),
    }),
    getFlowDiff: defineOperation({
      name: 'getFlowDiff',
      summary: 'What changes between two versions of a flow, and the live orders it touches',
      description:
        'Nodes added, removed and changed (`type`, `label`, `params.<key>`) and edges added and removed from version `from` (default the latest published) ' +
        'to version `to` or `draft` (default), with the unfinished orders pinned to `from` counted by the node where each is parked (open wait, hold, timer) or running. ' +
        '409 when the flow has no published version.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: flowId, from: version.optional().describe('Default the latest published version'), to: diffTarget.optional().describe('A version or draft (default)') }),
      output: flowDiffSchema,
      example: { id: 'tpl-marketplace-order' },
      run: async (_caller, input) => readFlowDiff(deps, input.id, input.from, input.to),
    }),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    flowTrial: ReturnType<typeof flowTrialOperations>;
  }
}
