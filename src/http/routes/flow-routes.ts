// REST: /api/v1/flows — list, read with graphs, save a draft, publish, compiled machine (contract section 4).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../engine/clock.js';
import type { Engine } from '../../engine/engine-module.js';
import type { FlowRow } from '../../engine/flows/flow-store.js';
import { validateGraph } from '../../engine/validator.js';
import { notFound } from '../../domain/errors.js';
import { ORDER_CHANNELS, ORDER_MODELS } from '../../domain/order-input-schema.js';

export interface FlowRouteDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

/** Flow ids as the built-in flows spell them. */
const flowId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit');
const flowParams = z.strictObject({ id: flowId });
const versionParams = z.strictObject({ id: flowId, v: z.coerce.number().int().positive().max(2_147_483_647) });

/** Spec "Flow list row". */
export const flowListRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  model: z.string().nullable(),
  channels: z.array(z.string()),
  publishedVersion: z.number().int().nullable(),
  updatedAt: z.number(),
  nodeCount: z.number().int().describe('Nodes in the saved draft'),
});

const problemSchema = z.object({ nodeId: z.string().optional(), message: z.string() });
const graphSchema = z.looseObject({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) });

const flowDetailSchema = z.object({
  flow: flowListRowSchema,
  draft: z.object({ graph: z.unknown(), updatedAt: z.number(), problems: z.array(problemSchema) }),
  versions: z.array(z.object({ version: z.number().int(), name: z.string(), graph: z.unknown(), createdBy: z.string(), createdAt: z.number() })),
});

const saveDraftBody = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  model: z.enum(ORDER_MODELS).nullable().optional(),
  channels: z.array(z.enum(ORDER_CHANNELS)).max(ORDER_CHANNELS.length).optional(),
  graph: graphSchema,
});

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

export function flowRoutes(deps: FlowRouteDeps): RouteDef[] {
  const { db, engine } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/flows',
      summary: 'List flows',
      tag: 'flows',
      access: 'viewer',
      responses: { 200: { description: 'Every flow, by id', schema: z.object({ flows: z.array(flowListRowSchema) }) } },
      handler: async () => ({ body: { flows: (await engine.flows.list(db)).map(flowListRow) } }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/flows/:id',
      summary: 'A flow with its draft (and its validation problems) and every published version, graphs included',
      tag: 'flows',
      access: 'viewer',
      params: flowParams,
      responses: { 200: { description: 'The flow', schema: flowDetailSchema }, 404: { description: 'Unknown flow' } },
      handler: async ({ params }) => {
        const flow = await engine.flows.get(db, params.id);
        if (!flow) throw notFound('Flow');
        const versions = await engine.flows.versions(db, params.id);
        return {
          body: {
            flow: flowListRow(flow),
            draft: { graph: flow.draftGraph, updatedAt: flow.draftUpdatedAt, problems: validateGraph(flow.draftGraph, engine.catalogue) },
            versions: versions.map((v) => ({ version: v.version, name: v.name, graph: v.graph, createdBy: v.createdBy, createdAt: v.createdAt })),
          },
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/flows/:id',
      summary: 'Save the draft of a flow (creates the flow); a draft may have problems, publishing needs none',
      tag: 'flows',
      access: 'operator',
      params: flowParams,
      body: saveDraftBody,
      responses: { 200: { description: 'Saved', schema: z.object({ flow: flowListRowSchema, problems: z.array(problemSchema) }) } },
      handler: async ({ params, body }) => {
        const { flow, problems } = await engine.flows.saveDraft(
          db,
          { id: params.id, name: body.name, description: body.description ?? null, model: body.model ?? null, channels: body.channels ?? [], graph: body.graph },
          deps.clock.now(),
        );
        return { body: { flow: flowListRow(flow), problems } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/flows/:id/publish',
      summary: 'Publish the saved draft as the next version',
      tag: 'flows',
      access: 'operator',
      params: flowParams,
      responses: {
        200: { description: 'The new version number', schema: z.object({ version: z.number().int() }) },
        400: { description: 'The draft has validation problems (one issue each)' },
        404: { description: 'Unknown flow' },
      },
      handler: async ({ params, principal }) => {
        const row = await db.tx((tx) => engine.flows.publish(tx, params.id, principal!.actor, deps.clock.now()));
        return { body: { version: row.version } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/flows/:id/versions/:v/machine',
      summary: 'The compiled XState machine config of a published version (JSON)',
      tag: 'flows',
      access: 'viewer',
      params: versionParams,
      responses: {
        200: { description: 'XState v5 machine config', schema: z.record(z.string(), z.unknown()) },
        404: { description: 'Unknown flow or version' },
      },
      handler: async ({ params }) => {
        if (!(await engine.flows.version(db, params.id, params.v))) throw notFound('Flow version');
        const { compiled } = await engine.registry.load(db, params.id, params.v);
        return { body: compiled.config };
      },
    }),
  ];
}
