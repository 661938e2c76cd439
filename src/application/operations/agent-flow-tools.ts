// Agents' flow tools (contract sections 11 and 17) as adapters of the flow operations REST binds: list, read a draft as steps and connections, publish, propose a change, stats.
import { z } from 'zod';
import { agentTool } from '../agent-tool.js';
import { flowListRowSchema, type flowOperations } from './flow-operations.js';
import type { proposeFlowChangeOperation } from './propose-flow-change.js';
import type { flowStatsOperations } from './flow-stats-operations.js';
import { diffTarget, SIMULATE_EXAMPLE, type flowTrialOperations } from './flow-trial-operations.js';
import { simulateBodyShape } from '../../orders/flow-trial/simulation-request.js';
import { simulationAnswerSchema } from '../../orders/flow-trial/simulation-answer.js';
import { flowDiffSchema } from '../../orders/flow-trial/flow-impact.js';

const flowId = z.string().min(1).max(100).describe('The flow id');

/** A draft's nodes and edges as plain lists, whatever shape a saved draft has (drafts may be invalid). */
function draftParts(graph: unknown): { steps: { id: string; type: string; label: string | null }[]; connections: { from: string; to: string; branch: string | null }[] } {
  const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  const g = record(graph) ? graph : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(record) : []);
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    steps: list(g.nodes).map((n) => ({ id: text(n.id) ?? '', type: text(n.type) ?? '', label: text(n.label) })),
    connections: list(g.edges).map((e) => ({ from: text(e.from) ?? '', to: text(e.to) ?? '', branch: text(e.branch) })),
  };
}

export interface FlowToolBases {
  flows: ReturnType<typeof flowOperations>;
  proposeFlowChange: ReturnType<typeof proposeFlowChangeOperation>;
  flowStats: ReturnType<typeof flowStatsOperations>;
  flowTrial: ReturnType<typeof flowTrialOperations>;
}

/** `Wait for sellers (p95 2 d 3 h)`: the node whose finished runs took longest at p95, for the text summary. */
function slowestText(nodes: Record<string, { durationMs: { p95: number | null } }>): string {
  const [id, slowest] = Object.entries(nodes).reduce<[string, number] | [null, -1]>(
    (best, [nodeId, n]) => (n.durationMs.p95 !== null && n.durationMs.p95 > best[1] ? [nodeId, n.durationMs.p95] : best),
    [null, -1],
  );
  return id === null ? 'no finished runs yet' : `slowest step at p95: ${id} (${Math.round(slowest / 1000)} s)`;
}

export function agentFlowTools(bases: FlowToolBases) {
  const { flows, flowTrial } = bases;
  return [
    agentTool(flows.listFlows, {
      name: 'list_flows',
      summary: 'Flows and their published versions',
      description: 'Every flow (list row) with the numbers of all its published versions.',
      input: z.strictObject({}),
      output: z.object({ flows: z.array(flowListRowSchema.extend({ versions: z.array(z.number().int()) })) }),
      summarize: (o) => `${o.flows.length} flow${o.flows.length === 1 ? '' : 's'}: ${o.flows.map((f) => f.id).join(', ')}.`,
      mapIn: () => ({ versions: true }),
      mapOut: (listed) => ({ flows: listed.flows.map((f) => ({ ...f, versions: f.versions ?? [] })) }),
    }),
    agentTool(flows.getFlow, {
      name: 'get_flow',
      summary: "A flow's saved draft: steps, connections, validation problems",
      description: 'The flow list row and its draft as steps (id, type, label) and connections (from, to, branch), with every validation problem it has now.',
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
      mapIn: (input) => ({ id: input.flowId }),
      mapOut: (flow) => ({ flow: flow.flow, draft: { ...draftParts(flow.draft.graph), problems: flow.draft.problems } }),
    }),
    agentTool(flows.publishFlow, {
      name: 'publish_flow',
      summary: 'Publish a saved draft as a new version',
      description: 'Freezes the draft as the next version; new orders start on it. A draft with validation problems is refused.',
      input: z.strictObject({ flowId }),
      output: z.object({ version: z.number().int() }),
      example: { flowId: 'tpl-marketplace-order' },
      summarize: (o) => `Published version ${o.version}.`,
      mapIn: (input) => ({ id: input.flowId }),
      mapOut: (published) => published,
    }),
    agentTool(bases.flowStats.getFlowStats, {
      name: 'flow_stats',
      summary: 'Where orders of a flow version spend their time: runs, durations, orders at each step now, edges taken',
      description:
        'For a published version (default the latest) and the orders created between `from` and `to` (epoch ms, default the last 7 days): orders by status, each node\'s runs, successes, failures, `activeNow` and durations (p50, p95, max in ms, nearest rank), and each edge\'s count.',
      input: z.strictObject({
        flowId,
        version: z.number().int().positive().optional(),
        from: z.number().int().min(0).optional().describe('Epoch ms'),
        to: z.number().int().min(0).optional().describe('Epoch ms'),
      }),
      output: bases.flowStats.getFlowStats.output,
      example: { flowId: 'tpl-marketplace-order' },
      summarize: (o) => {
        const total = Object.values(o.orders).reduce((sum, n) => sum + n, 0);
        const now = Object.values(o.nodes).reduce((sum, n) => sum + n.activeNow, 0);
        return `${o.flowId} version ${o.version}: ${total} order${total === 1 ? '' : 's'} in the range, ${now} at a step now; ${slowestText(o.nodes)}.`;
      },
      mapIn: ({ flowId: id, ...range }) => ({ id, ...range }),
      mapOut: (stats) => stats,
    }),
    agentTool(bases.proposeFlowChange, {
      name: 'propose_flow_change',
      summary: bases.proposeFlowChange.summary,
      description: bases.proposeFlowChange.description,
      input: z.strictObject({ flowId, instruction: z.string().min(1).max(2000) }),
      output: bases.proposeFlowChange.output,
      example: { flowId: 'tpl-storefront-order', instruction: 'add an approval before capture' },
      summarize: bases.proposeFlowChange.summarize,
      mapIn: (input) => ({ id: input.flowId, instruction: input.instruction }),
      mapOut: (proposal) => proposal,
    }),
    agentTool(flowTrial.simulateFlow, {
      name: 'simulate_flow',
      summary: 'Try a flow on one order without keeping anything',
      description: flowTrial.simulateFlow.description,
      input: z.strictObject({ flowId, ...simulateBodyShape }),
      output: simulationAnswerSchema,
      example: { flowId: SIMULATE_EXAMPLE.id, input: SIMULATE_EXAMPLE.input, script: SIMULATE_EXAMPLE.script },
      summarize: (o) => `Simulated ${o.flow.id}${o.flow.version === null ? ' (draft)' : ` v${o.flow.version}`}: ${o.status.replace('_', ' ')}${o.reason ? ` (${o.reason})` : ''} after ${o.path.join(' → ')}; ${o.scriptUsed} script entr${o.scriptUsed === 1 ? 'y' : 'ies'} used. Nothing was kept.`,
      mapIn: ({ flowId: id, ...body }) => ({ id, ...body }),
      mapOut: (answer) => answer,
    }),
    agentTool(flowTrial.getFlowDiff, {
      name: 'flow_impact',
      summary: 'What a change to a flow does to its live orders',
      description: flowTrial.getFlowDiff.description,
      input: z.strictObject({ flowId, from: z.number().int().positive().max(2_147_483_647).optional(), to: diffTarget.optional() }),
      output: flowDiffSchema,
      example: { flowId: 'tpl-marketplace-order' },
      summarize: (o) => {
        const touched = [...o.nodes.removed, ...o.nodes.changed.map((c) => c.id)].filter((id) => (o.liveOrders.atNode[id] ?? 0) > 0);
        return `v${o.from} → ${o.to === 'draft' ? 'draft' : `v${o.to}`}: ${o.nodes.added.length} added, ${o.nodes.removed.length} removed, ${o.nodes.changed.length} changed; ${o.liveOrders.total} live order${o.liveOrders.total === 1 ? '' : 's'} on v${o.from}${touched.length ? `, ${touched.map((id) => `${o.liveOrders.atNode[id]} at ${id}`).join(', ')}` : ''}.`;
      },
      mapIn: (input) => ({ id: input.flowId, from: input.from, to: input.to }),
      mapOut: (diff) => diff,
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    agentFlowTools: ReturnType<typeof agentFlowTools>;
  }
}
