// Agents' flow tools (contract section 11): list, read a draft as steps and connections, publish, propose a change.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { notFound } from '../../domain/errors.js';
import { validateGraph } from '../../engine/validator.js';
import { flowListRow, flowListRowSchema, type FlowOperationDeps } from './flow-operations.js';
import { proposeFlowChangeOperation } from './propose-flow-change.js';

const flowId = z.string().min(1).max(100).describe('The flow id');

/** A draft's nodes and edges as plain lists, whatever shape a saved draft has (drafts may be invalid). */
function draftParts(graph: unknown): { steps: { id: string; type: string; label: string | null }[]; connections: { from: string; to: string; branch: string | null }[] } {
  const g = (graph ?? {}) as { nodes?: unknown; edges?: unknown };
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : []);
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    steps: list(g.nodes).map((n) => ({ id: text(n.id) ?? '', type: text(n.type) ?? '', label: text(n.label) })),
    connections: list(g.edges).map((e) => ({ from: text(e.from) ?? '', to: text(e.to) ?? '', branch: text(e.branch) })),
  };
}

export function agentFlowTools(deps: FlowOperationDeps) {
  const { db, engine } = deps;
  return [
    defineOperation({
      name: 'list_flows',
      summary: 'Flows and their published versions',
      description: 'Every flow (list row) with the numbers of all its published versions.',
      feature: 'flows',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({}),
      output: z.object({ flows: z.array(flowListRowSchema.extend({ versions: z.array(z.number().int()) })) }),
      summarize: (o) => `${o.flows.length} flow${o.flows.length === 1 ? '' : 's'}: ${o.flows.map((f) => f.id).join(', ')}.`,
      run: async () => {
        const [flows, versions] = await Promise.all([
          engine.flows.list(db),
          db.query<{ flow_id: string; versions: number[] }>('SELECT flow_id, array_agg(version ORDER BY version) AS versions FROM flow_versions GROUP BY flow_id'),
        ]);
        const byFlow = new Map(versions.rows.map((r) => [r.flow_id, r.versions]));
        return { flows: flows.map((f) => ({ ...flowListRow(f), versions: byFlow.get(f.id) ?? [] })) };
      },
    }),
    defineOperation({
      name: 'get_flow',
      summary: "A flow's saved draft: steps, connections, validation problems",
      description: 'The flow list row and its draft as steps (id, type, label) and connections (from, to, branch), with every validation problem it has now.',
      feature: 'flows',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({ flowId }),
      output: z.object({
        flow: flowListRowSchema,
        draft: z.object({
          steps: z.array(z.object({ id: z.string(), type: z.string(), label: z.string().nullable() })),
          connections: z.array(z.object({ from: z.string(), to: z.string(), branch: z.string().nullable() })),
          problems: z.array(z.object({ nodeId: z.string().optional(), message: z.string() })),
        }),
      }),
      example: { flowId: 'tpl-marketplace-order' },
      summarize: (o) => `${o.flow.name}: ${o.draft.steps.length} steps, ${o.draft.problems.length} problem${o.draft.problems.length === 1 ? '' : 's'} in the draft.`,
      run: async (_caller, input) => {
        const flow = await engine.flows.get(db, input.flowId);
        if (!flow) throw notFound('Flow');
        return { flow: flowListRow(flow), draft: { ...draftParts(flow.draftGraph), problems: validateGraph(flow.draftGraph, engine.catalogue) } };
      },
    }),
    defineOperation({
      name: 'publish_flow',
      summary: 'Publish a saved draft as a new version',
      description: 'Freezes the draft as the next version; new orders start on it. A draft with validation problems is refused.',
      feature: 'flows',
      audience: 'agents',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ flowId }),
      output: z.object({ version: z.number().int() }),
      example: { flowId: 'tpl-marketplace-order' },
      summarize: (o) => `Published version ${o.version}.`,
      run: async (caller, input) => {
        const row = await db.tx((tx) => engine.flows.publish(tx, input.flowId, caller.actor, deps.clock.now()));
        return { version: row.version };
      },
    }),
    proposeFlowChangeOperation(deps),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    agentFlowTools: ReturnType<typeof agentFlowTools>;
  }
}
