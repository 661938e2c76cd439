// The input of a migrate batch and of the migrations route (runtime contract 15): the flow, the versions and the node mapping.
import { z } from 'zod';

/** A node id of a flow graph (contract 5). */
export const nodeIdSchema = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a node id: a-z, 0-9 and _, starting with a letter').max(100);

const version = z.number().int().positive().max(2_147_483_647);

/** At most this many renamed nodes (a flow has far fewer). */
export const MAPPING_MAX = 500;

export const migrateShape = {
  flowId: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit'),
  fromVersion: version.describe('The published version whose unfinished orders move'),
  toVersion: version.optional().describe('The published version they move to; default the latest'),
  mapping: z
    .record(nodeIdSchema, nodeIdSchema)
    .refine((m) => Object.keys(m).length <= MAPPING_MAX, `at most ${MAPPING_MAX} entries`)
    .optional()
    .describe('Old node id -> new node id; a node not named maps to the node with its own id'),
};

/** A migrate batch's input (contract 16): `orderIds` and `dryRun` belong to the batch or the route, never to the input. */
export const migrateInputSchema = z.strictObject(migrateShape, {
  error: (issue) =>
    issue.code === 'unrecognized_keys' ? `Unknown key(s) ${issue.keys.join(', ')}: the input is { flowId, fromVersion, toVersion?, mapping? } (orderIds or a filter select the orders; dryRun is the batch's own)` : undefined,
});

export type MigrateInput = z.output<typeof migrateInputSchema>;
