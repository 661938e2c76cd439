// proposeFlowChange (REST, and the agents' propose_flow_change of contract section 11): a plain instruction drafted onto a copy of the flow's saved draft, never saved.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { notFound } from '../../domain/errors.js';
import { proposeFlowChange } from '../flow-change/flow-change-proposal.js';
import type { FlowOperationDeps } from './flow-operations.js';

export function proposeFlowChangeOperation(deps: FlowOperationDeps) {
  const { db, engine } = deps;
  return defineOperation({
    name: 'proposeFlowChange',
    summary: 'Draft a flow change from an instruction (nothing saved)',
    description:
      'Applies one plain instruction to a copy of the saved draft and answers the changed graph, its validation problems and a ' +
      'summary of exactly what changed; the stored draft is never changed. Understood: insert a step before/after a step or on a ' +
      'branch ("add an approval before capture", "on rejection notify sellers"), remove a step ("remove the fraud check"), ' +
      'reconnect a branch ("send rejected orders to cancel"), change a param ("wait 3 days for sellers", "set the delay to 2h"). ' +
      'An instruction it cannot read or apply is refused (invalid input) with what it understands. Grammar: docs/assistant.md.',
    feature: 'flows',
    role: 'operator',
    effect: 'read',
    input: z.strictObject({ id: z.string().min(1).max(100).describe('The flow id'), instruction: z.string().min(1).max(2000) }),
    output: z.object({ flowId: z.string(), summary: z.string(), graph: z.unknown(), problems: z.array(z.object({ nodeId: z.string().optional(), message: z.string() })) }),
    example: { id: 'tpl-storefront-order', instruction: 'add an approval before capture' },
    summarize: (o) => o.summary,
    run: async (_caller, input) => {
      const flow = await engine.flows.get(db, input.id);
      if (!flow) throw notFound('Flow');
      const { graph, problems, summary } = proposeFlowChange(flow.draftGraph, input.instruction, engine.catalogue);
      return { flowId: flow.id, summary, graph, problems };
    },
  });
}

declare module '../operation-types.js' {
  interface OperationModules {
    proposeFlowChange: ReturnType<typeof proposeFlowChangeOperation>;
  }
}
