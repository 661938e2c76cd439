// The body of POST /api/v1/flows/:id/simulate (contract 14) as zod schemas, and its script as the engine plays it.
import { z } from 'zod';
import { orderInputSchema } from '../../domain/order-input-schema.js';
import { durationSchema, parseDuration } from '../../platform/duration.js';
import { GRAPH_LIMITS } from '../../engine/graph.js';
import type { SimulationStep } from '../../engine/simulation/simulation-script.js';
import { COMMAND_LIMITS, eventPayloadSchema } from '../command-schemas.js';

/** Bounds on what one simulation is asked to do (its run has its own budget besides). */
export const SIMULATION_REQUEST_LIMITS = { script: 200, failSteps: 100 } as const;

const nodeId = z.string().min(1).max(GRAPH_LIMITS.idLength);

export const scriptEntrySchema = z.union([
  z.strictObject({ event: z.string().min(1).max(COMMAND_LIMITS.event).describe('Delivers this business event to the wait.event waiting for it'), payload: eventPayloadSchema.optional() }),
  z.strictObject({
    decision: z.enum(['approved', 'rejected']).describe('Decides the waiting approval (recorded with by = simulation)'),
    nodeId: nodeId.optional().describe('The approval node; optional when one approval waits'),
    note: z.string().max(COMMAND_LIMITS.note).optional(),
  }),
  z.strictObject({ advance: durationSchema.describe('Moves the simulated clock; due timers (escalations, timeouts, delays, retry backoffs) fire on the way') }),
  z.strictObject({
    respond: nodeId.describe('Answers the next call of this http.call node (used only at that call)'),
    status: z.number().int().min(100).max(599),
    body: z.unknown().optional(),
  }),
  z.strictObject({ hold: nodeId.optional().describe('The held node; optional when one step is held'), action: z.enum(['retry', 'rollback']) }),
]);

export type ScriptEntry = z.infer<typeof scriptEntrySchema>;

/** The fields of the simulate body (the path's flow id aside). */
export const simulateBodyShape = {
  version: z.number().int().positive().max(2_147_483_647).optional().describe('A published version to simulate; default the saved draft'),
  graph: z
    .looseObject({ nodes: z.array(z.unknown()).max(GRAPH_LIMITS.nodes), edges: z.array(z.unknown()).max(GRAPH_LIMITS.edges) })
    .optional()
    .describe('An unsaved graph to simulate instead of the draft (the editor sends what is typed)'),
  input: orderInputSchema.describe('As on POST /api/v1/orders'),
  vars: z.record(z.string(), z.unknown()).optional(),
  script: z.array(scriptEntrySchema).max(SIMULATION_REQUEST_LIMITS.script).optional().describe('Applied in order each time the run stops and waits'),
  failSteps: z.array(nodeId).max(SIMULATION_REQUEST_LIMITS.failSteps).optional().describe('Steps that fail at once, as if their retries were exhausted'),
};

export const simulateBodySchema = z.strictObject(simulateBodyShape);
export type SimulateBody = z.infer<typeof simulateBodySchema>;

/** The script as the simulated run plays it. */
export function simulationSteps(script: readonly ScriptEntry[]): SimulationStep[] {
  return script.map((entry): SimulationStep => {
    if ('event' in entry) return { kind: 'event', event: entry.event, payload: entry.payload ?? {} };
    if ('decision' in entry) return { kind: 'decision', decision: entry.decision, nodeId: entry.nodeId ?? null, note: entry.note ?? null };
    if ('advance' in entry) return { kind: 'advance', ms: parseDuration(entry.advance) };
    if ('respond' in entry) return { kind: 'respond', nodeId: entry.respond, status: entry.status, body: entry.body ?? null };
    return { kind: 'hold', nodeId: entry.hold ?? null, action: entry.action };
  });
}
