// What a simulation answers (contract 14): the order live-state shape of the simulated run, plus its path and how much script it used.
import { z } from 'zod';
import type { CompiledFlow } from '../../engine/compiler.js';
import type { SimulatedRun } from '../../engine/simulation/simulated-run.js';
import type { SimLine } from '../../commerce/simulated-ports/simulated-ledger.js';
import { asCommerceFacts } from '../../commerce/commerce-order.js';
import { liveOrder, liveWaits } from '../live-order.js';
import { liveEdges, liveNodes } from '../live-graph.js';
import { orderLiveStateSchema } from '../order-schemas.js';

export const simulationAnswerSchema = orderLiveStateSchema
  .extend({
    flow: z.looseObject({
      id: z.string(),
      version: z.number().int().nullable().describe('The published version simulated; null for the saved draft or an unsaved graph'),
      name: z.string(),
      graph: z.unknown(),
    }),
    simulated: z.literal(true).describe('Nothing of this order exists: its id is not a real order'),
    path: z.array(z.string()).describe('Node ids in the order they ran, repeats included'),
    scriptUsed: z.number().int().describe('How many script entries were applied'),
    events: z.array(z.object({ event: z.string(), nodeId: z.string(), at: z.number() })).describe('Order events the run would have sent (none was sent)'),
    calls: z
      .array(
        z.object({
          nodeId: z.string(),
          purpose: z.enum(['step', 'undo']),
          attempt: z.number().int(),
          method: z.string(),
          url: z.string(),
          at: z.number(),
          status: z.number().int(),
          scripted: z.boolean().describe('true: a script respond entry answered; false: the default 200 {}'),
        }),
      )
      .describe('External calls the run would have made (none was made), with the answer the simulation gave each'),
    slices: z.number().int().describe('Commands the run took (its budget is 1,000)'),
  })
  .meta({ id: 'Simulation', description: 'A simulated run (contract 14): the live-state shape, its path and the script used; nothing of it was kept' });

export type SimulationAnswer = z.input<typeof simulationAnswerSchema>;

export interface SimulatedOrderView {
  flow: { id: string; version: number | null; name: string; graph: unknown };
  compiled: CompiledFlow;
  run: SimulatedRun;
  lines: readonly SimLine[];
  slices: number;
}

/** The simulated run projected as GET /api/v1/orders/:id projects a real one (documents: none). */
export function simulationAnswer(v: SimulatedOrderView): SimulationAnswer {
  const { run, compiled } = v;
  const { nodes: records, waits } = run.runState;
  // The run's fields and the facts the orders subject gave it, as one record (as the live state reads a row).
  const order = { ...run.runState.order, ...asCommerceFacts(run.runState.order.facts) };
  return {
    orderId: order.id,
    status: order.status,
    reason: order.reason,
    order: liveOrder(order, { flowVersion: v.flow.version, restartedFrom: null }, [...v.lines].sort((a, b) => a.lineNo - b.lineNo)),
    flow: v.flow,
    nodes: liveNodes(compiled, records),
    edges: liveEdges(compiled, records),
    waits: liveWaits(waits, order.currency),
    // Held steps as on a real order; a simulation has no timer view, no returns and nothing to return.
    holds: run.runState.holds.map((h) => ({ nodeId: h.nodeId, title: h.title, error: h.error, since: h.since })),
    timers: [],
    returns: [],
    returnable: { lines: [], closed: 'A simulated order cannot be returned', windowEndsAt: null },
    vars: order.vars,
    timeline: run.timeline.map((t) => ({ at: t.at, kind: t.kind, message: t.message, nodeId: t.nodeId, data: t.data })),
    instanceId: order.instanceId,
    generation: order.generation,
    ...(order.rollback ? { rollback: order.rollback } : {}),
    createdAt: order.createdAt,
    updatedAt: run.now,
    documents: [],
    simulated: true,
    path: [...run.path],
    scriptUsed: run.scriptUsed,
    events: [...run.events],
    calls: [...run.callLog],
    slices: v.slices,
  };
}
