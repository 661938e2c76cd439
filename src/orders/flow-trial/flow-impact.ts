// A flow's paths and what a change does to its live orders (contract 14): the ways through a graph, and the diff of two versions with
// the unfinished orders of the older one by node.
import { z } from 'zod';
import type { Db } from '../../db/db.js';
import type { Engine } from '../../engine/engine-module.js';
import { compileFlow, type CompiledFlow } from '../../engine/compiler.js';
import { analyseGraph } from '../../engine/validator.js';
import { FlowProblemsError } from '../../engine/flows/flow-store.js';
import { flowPaths } from '../../engine/flows/flow-paths.js';
import { diffGraphs } from '../../engine/flows/flow-diff.js';
import { liveOrdersAtNodes } from '../../engine/runtime/live-orders-at-nodes.js';
import { DomainError, notFound } from '../../domain/errors.js';

export interface FlowImpactDeps {
  db: Db;
  engine: Pick<Engine, 'catalogue' | 'flows' | 'registry'>;
}

export const flowPathsSchema = z
  .object({
    flowId: z.string(),
    version: z.number().int().nullable().describe('The published version read; null for the draft'),
    paths: z.array(
      z.object({
        nodes: z.array(z.string()).describe('From the trigger to an End or continue-as-new node; a loop is followed back once, so ids may repeat'),
        branches: z.array(z.string()).describe('The branch taken out of each node but the last'),
        end: z.string(),
      }),
    ),
    unreachable: z.array(z.string()).describe('Nodes no path reaches'),
    truncated: z.boolean().describe('true when the enumeration stopped at 500 paths (or its step budget)'),
  })
  .meta({ id: 'FlowPaths' });

const diffEdgeSchema = z.object({ from: z.string(), to: z.string(), branch: z.string().nullable() });

export const flowDiffSchema = z
  .object({
    from: z.number().int(),
    to: z.union([z.number().int(), z.literal('draft')]),
    nodes: z.object({
      added: z.array(z.string()),
      removed: z.array(z.string()),
      changed: z.array(z.object({ id: z.string(), fields: z.array(z.string()).describe('type, label, params.<key>') })),
    }),
    edges: z.object({ added: z.array(diffEdgeSchema), removed: z.array(diffEdgeSchema) }),
    liveOrders: z
      .object({ total: z.number().int(), atNode: z.record(z.string(), z.number().int()) })
      .describe('Unfinished orders pinned to `from`, by the node where each is parked (open wait, hold, timer) or running'),
  })
  .meta({ id: 'FlowDiff' });

/** The compiled draft of a flow; 400 with its problems when it has any. */
function compileDraft(id: string, graph: unknown, engine: FlowImpactDeps['engine']): CompiledFlow {
  const problems = analyseGraph(graph, engine.catalogue).problems;
  if (problems.length > 0) throw new FlowProblemsError(problems);
  return compileFlow(`${id}@draft`, graph, engine.catalogue);
}

/** The paths of a published version, or of the draft by default (404 for an unknown flow or version). */
export async function readFlowPaths(deps: FlowImpactDeps, id: string, version?: number): Promise<z.input<typeof flowPathsSchema>> {
  const { db, engine } = deps;
  let compiled: CompiledFlow;
  if (version !== undefined) {
    if (!(await engine.flows.version(db, id, version))) throw notFound('Flow version');
    compiled = (await engine.registry.load(db, id, version)).compiled;
  } else {
    const flow = await engine.flows.get(db, id);
    if (!flow) throw notFound('Flow');
    compiled = compileDraft(id, flow.draftGraph, engine);
  }
  return { flowId: id, version: version ?? null, ...flowPaths(compiled) };
}

/**
 * The diff from version `from` (default the latest published) to version `to` or the draft
 * (default), with the live orders of `from` by node. 404 for an unknown flow or version; 409 when
 * the flow has no published version to compare from.
 */
export async function readFlowDiff(deps: FlowImpactDeps, id: string, from?: number, to?: number | 'draft'): Promise<z.input<typeof flowDiffSchema>> {
  const { db, engine } = deps;
  const flow = await engine.flows.get(db, id);
  if (!flow) throw notFound('Flow');
  const base = from ?? flow.publishedVersion;
  if (base === null) throw new DomainError('flow_not_published', `Flow ${id} has no published version to compare with`, 'conflict');
  const fromRow = await engine.flows.version(db, id, base);
  if (!fromRow) throw notFound('Flow version');
  const target = to ?? 'draft';
  let toGraph: unknown = flow.draftGraph;
  if (target !== 'draft') {
    const toRow = await engine.flows.version(db, id, target);
    if (!toRow) throw notFound('Flow version');
    toGraph = toRow.graph;
  }
  const liveOrders = await liveOrdersAtNodes(db, id, base);
  return { from: base, to: target, ...diffGraphs(fromRow.graph, toGraph, engine.catalogue), liveOrders };
}
