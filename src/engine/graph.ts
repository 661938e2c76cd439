// Flow graph model: the JSON a flow version stores (runtime contract section 5) and its zod schema.
import { z } from 'zod';

/** A node id: a lowercase letter, then lowercase letters, digits and `_`. */
export const NODE_ID_PATTERN = /^[a-z][a-z0-9_]*$/;

/** Upper bounds that keep validation and compilation cheap on hostile input. */
export const GRAPH_LIMITS = Object.freeze({ nodes: 500, edges: 2000, idLength: 64 });

export const graphNodeSchema = z.object({
  id: z
    .string()
    .max(GRAPH_LIMITS.idLength, `Node ids are at most ${GRAPH_LIMITS.idLength} characters`)
    .regex(NODE_ID_PATTERN, 'Node ids start with a lowercase letter and contain only lowercase letters, digits and _'),
  type: z.string().min(1, 'Node type is required'),
  label: z.string().max(200).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

export const graphEdgeSchema = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  branch: z.string().min(1).optional(),
});

/**
 * The graph of one flow version. Unknown keys (e.g. editor positions) are accepted and
 * dropped from the parsed value; the stored JSON is not rewritten by validation.
 */
export const graphSchema = z.object({
  nodes: z.array(graphNodeSchema).max(GRAPH_LIMITS.nodes, `A flow has at most ${GRAPH_LIMITS.nodes} nodes`),
  edges: z.array(graphEdgeSchema).max(GRAPH_LIMITS.edges, `A flow has at most ${GRAPH_LIMITS.edges} edges`),
});

export type GraphNode = z.infer<typeof graphNodeSchema>;
export type GraphEdge = z.infer<typeof graphEdgeSchema>;
export type Graph = z.infer<typeof graphSchema>;
