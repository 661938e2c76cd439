// Flows: list, read with graphs, save a draft, publish, the compiled machine, the node catalogue (contract section 4).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Engine } from '../../engine/engine-module.js';
import type { FlowRow } from '../../engine/flows/flow-store.js';
import type { FlowDiagrams } from '../../engine/flows/flow-diagrams.js';
import { validateGraph } from '../../engine/validator.js';
import { DEFAULT_RETRY_POLICY, type NodeTypeDef } from '../../engine/node-type.js';
import { notFound } from '../../domain/errors.js';
import { ORDER_CHANNELS, ORDER_MODELS } from '../../domain/order-input-schema.js';
import { callerKey } from '../../auth/caller-key.js';
import { activeOrdersByFlow } from '../../orders/flow-stats-read.js';

export interface FlowOperationDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

/** Flow ids as the built-in flows spell them. */
const flowId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit');

/** Spec "Flow list row". */
export const flowListRowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    model: z.string().nullable(),
    channels: z.array(z.string()),
    publishedVersion: z.number().int().nullable(),
    updatedAt: z.number(),
    nodeCount: z.number().int().describe('Nodes in the saved draft'),
  })
  .meta({ id: 'FlowListRow', description: 'Spec "Flow list row"' });

const problemSchema = z.object({ nodeId: z.string().optional(), message: z.string() }).meta({ id: 'FlowProblem' });
const graphSchema = z.looseObject({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).meta({ id: 'FlowGraph' });

const flowDetailSchema = z
  .object({
    flow: flowListRowSchema,
    draft: z.object({ graph: z.unknown(), updatedAt: z.number(), problems: z.array(problemSchema) }),
    versions: z.array(z.object({ version: z.number().int(), name: z.string(), graph: z.unknown(), createdBy: z.string(), createdAt: z.number() })),
  })
  .meta({ id: 'Flow' });

const nodeTypeSchema = z
  .object({
    type: z.string(),
    kind: z.string(),
    label: z.string(),
    description: z.string(),
    params: z.record(z.string(), z.unknown()),
    branches: z.array(z.string()).describe('Every branch a node of this type may leave by (the edges a flow wires from it)'),
    defaultBranch: z.string().nullable(),
    optionalBranches: z.array(z.string()),
    failureBranch: z.string().nullable(),
    outputs: z.string().nullable(),
    vars: z.string().nullable(),
    retry: z.object({ attempts: z.number(), backoffMs: z.number(), factor: z.number() }).nullable(),
  })
  .meta({ id: 'NodeType' });

function nodeCount(graph: unknown): number {
  const nodes = (graph as { nodes?: unknown } | null)?.nodes;
  return Array.isArray(nodes) ? nodes.length : 0;
}

export function flowListRow(f: FlowRow): z.infer<typeof flowListRowSchema> {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    model: f.model,
    channels: f.channels,
    publishedVersion: f.publishedVersion,
    updatedAt: f.updatedAt,
    nodeCount: nodeCount(f.draftGraph),
  };
}

/** The params a node of this type gets with nothing set (the schema's defaults), or an empty object when some are required. */
function defaultParams(def: NodeTypeDef): never {
  const parsed = def.params.safeParse({});
  return (parsed.success ? parsed.data : {}) as never;
}

/** The flow operations by name (the agents' flow tools adapt some of them); `diagrams`: the drawings of published versions, cached per version. */
export function flowOperations(deps: FlowOperationDeps & { diagrams: FlowDiagrams }) {
  const { db, engine } = deps;
  // Built once: the catalogue is fixed for the life of the process.
  const nodeTypes = engine.catalogue.list().map((def) => ({
    type: def.type,
    kind: def.kind,
    label: def.label,
    description: def.description,
    params: z.toJSONSchema(def.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    // A type's branches do not depend on its params today; the default params stand in for a node's.
    branches: [...def.branches(defaultParams(def))],
    defaultBranch: def.defaultBranch,
    optionalBranches: [...(def.optionalBranches ?? [])],
    failureBranch: def.failureBranch ?? null,
    outputs: def.outputs ?? null,
    vars: def.vars ?? null,
    retry: def.kind === 'step' ? { ...(def.retry ?? DEFAULT_RETRY_POLICY) } : null,
  }));
  return {
    listFlows: defineOperation({
      name: 'listFlows',
      summary: 'List flows',
      description:
        'Every flow by id, with its published version (null before the first publish) and the size of its draft; with `versions=true` each row also lists the numbers of all its published versions; with `activity=true` each row has `activeOrders`, its orders running and waiting now (all versions, as the flow stats worker last counted them, a few seconds behind).',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({
        versions: z.stringbool().optional().describe('true: each row lists `versions`, its published version numbers ascending'),
        activity: z.stringbool().optional().describe('true: each row has `activeOrders` { running, waiting }'),
      }),
      output: z.object({
        flows: z.array(
          flowListRowSchema.extend({
            versions: z.array(z.number().int()).optional(),
            activeOrders: z.object({ running: z.number().int(), waiting: z.number().int() }).optional().describe('Orders of the flow running and waiting now'),
          }),
        ),
      }),
      run: async (_caller, input) => {
        const [flows, versions, activity] = await Promise.all([
          engine.flows.list(db),
          input.versions ? engine.flows.versionNumbers(db) : null,
          input.activity ? activeOrdersByFlow(db) : null,
        ]);
        return {
          flows: flows.map((f) => ({
            ...flowListRow(f),
            ...(versions ? { versions: versions.get(f.id) ?? [] } : {}),
            ...(activity ? { activeOrders: activity.get(f.id) ?? { running: 0, waiting: 0 } } : {}),
          })),
        };
      },
    }),
    getFlow: defineOperation({
      name: 'getFlow',
      summary: 'Read a flow with its draft and every published version',
      description: 'The flow, its saved draft with the validation problems it has now, and every published version with its graph.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: flowId }),
      output: flowDetailSchema,
      example: { id: 'tpl-marketplace-order' },
      run: async (_caller, input) => {
        const flow = await engine.flows.get(db, input.id);
        if (!flow) throw notFound('Flow');
        const versions = await engine.flows.versions(db, input.id);
        return {
          flow: flowListRow(flow),
          draft: { graph: flow.draftGraph, updatedAt: flow.draftUpdatedAt, problems: validateGraph(flow.draftGraph, engine.catalogue) },
          versions: versions.map((v) => ({ version: v.version, name: v.name, graph: v.graph, createdBy: v.createdBy, createdAt: v.createdAt })),
        };
      },
    }),
    saveFlowDraft: defineOperation({
      name: 'saveFlowDraft',
      summary: 'Save the draft of a flow (creates the flow)',
      description: 'Stores the draft graph and answers every validation problem it has, in one pass. A draft may have problems; publishing needs none. Published versions never change.',
      feature: 'flows',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({
        id: flowId,
        name: z.string().min(1).max(200),
        description: z.string().max(2000).nullable().optional(),
        model: z.enum(ORDER_MODELS).nullable().optional(),
        channels: z.array(z.enum(ORDER_CHANNELS)).max(ORDER_CHANNELS.length).optional(),
        graph: graphSchema,
      }),
      output: z.object({ flow: flowListRowSchema, problems: z.array(problemSchema) }),
      example: {
        id: 'hello-flow',
        name: 'Hello flow',
        graph: { nodes: [{ id: 'start', type: 'trigger.api' }, { id: 'done', type: 'end' }], edges: [{ from: 'start', to: 'done' }] },
      },
      run: async (_caller, input) => {
        const { flow, problems } = await engine.flows.saveDraft(
          db,
          { id: input.id, name: input.name, description: input.description ?? null, model: input.model ?? null, channels: input.channels ?? [], graph: input.graph },
          deps.clock.now(),
        );
        return { flow: flowListRow(flow), problems };
      },
    }),
    publishFlow: defineOperation({
      name: 'publishFlow',
      summary: 'Publish the saved draft as the next version',
      description: 'Freezes the draft as the next version; new orders start on it, running orders keep theirs. A draft with validation problems is refused with one issue per problem.',
      feature: 'flows',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: flowId }),
      output: z.object({ version: z.number().int() }),
      example: { id: 'hello-flow' },
      run: async (caller, input) => {
        const row = await db.tx((tx) => engine.flows.publish(tx, input.id, caller.actor, deps.clock.now()));
        return { version: row.version };
      },
    }),
    getFlowMachine: defineOperation({
      name: 'getFlowMachine',
      summary: 'The compiled XState machine config of a published version',
      description: 'The XState v5 machine config a published version compiles to (JSON), as the engine runs it.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: flowId, v: z.coerce.number().int().positive().max(2_147_483_647) }),
      output: z.record(z.string(), z.unknown()).meta({ id: 'MachineConfig', description: 'XState v5 machine config' }),
      example: { id: 'tpl-marketplace-order', v: 1 },
      run: async (_caller, input) => {
        if (!(await engine.flows.version(db, input.id, input.v))) throw notFound('Flow version');
        const { compiled } = await engine.registry.load(db, input.id, input.v);
        return compiled.config as unknown as Record<string, unknown>;
      },
    }),
    getFlowDiagram: defineOperation({
      name: 'getFlowDiagram',
      summary: 'The drawing of a published version (SVG)',
      description:
        'The published version laid out as its state machine and drawn as SVG: shapes by node kind, labels, branch names on edges, `data-node-id` on nodes and `data-edge-from`/`data-edge-to`/`data-edge-branch` on edges. The same text for the same version (versions never change). A version too large to lay out in 2 s is drawn as a list (data-drawing="list"); a caller starts at most 4 new layouts per 10 seconds (429 with Retry-After).',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: flowId, v: z.coerce.number().int().positive().max(2_147_483_647) }),
      output: z.object({ svg: z.string() }).meta({ id: 'FlowDiagram' }),
      example: { id: 'tpl-marketplace-order', v: 1 },
      run: async (caller, input) => {
        const row = await engine.flows.version(db, input.id, input.v);
        if (!row) throw notFound('Flow version');
        return { svg: await deps.diagrams.svg({ flowId: row.flowId, version: row.version, name: row.name, graph: row.graph }, callerKey(caller)) };
      },
    }),
    listNodeTypes: defineOperation({
      name: 'listNodeTypes',
      summary: 'The node catalogue: every node type with its params schema and branches',
      description: 'What a flow may use: each node type with its kind, params (JSON Schema), the branches it leaves by, its outputs and its retry policy.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.object({}),
      output: z.object({ nodeTypes: z.array(nodeTypeSchema) }),
      run: async () => ({ nodeTypes }),
    }),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    flows: ReturnType<typeof flowOperations>;
  }
}
