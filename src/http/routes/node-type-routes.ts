// GET /api/v1/node-types: the node catalogue (params schema, branches, outputs) for editors, docs and diagrams.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { Catalogue } from '../../engine/catalogue.js';
import { DEFAULT_RETRY_POLICY, type NodeTypeDef } from '../../engine/node-type.js';

const nodeTypeSchema = z.object({
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
});

/** The params a node of this type gets with nothing set (the schema's defaults), or an empty object when some are required. */
function defaultParams(def: NodeTypeDef): never {
  const parsed = def.params.safeParse({});
  return (parsed.success ? parsed.data : {}) as never;
}

export function nodeTypeRoutes(catalogue: Catalogue): RouteDef[] {
  // Built once: the catalogue is fixed for the life of the process.
  const listing = catalogue.list().map((def) => ({
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
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/node-types',
      summary: 'The node catalogue: every node type with its params schema and branches',
      tag: 'flows',
      access: 'viewer',
      responses: { 200: { description: 'Node types', schema: z.object({ nodeTypes: z.array(nodeTypeSchema) }) } },
      handler: () => ({ body: { nodeTypes: listing } }),
    }),
  ];
}
