// The layout threads (contract 13 "Drawing cost"): a layout past its budget is stopped and its thread replaced; waiting work is bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../src/nodes/commerce-node-types.js';
import { diagramModel } from '../../../src/engine/flows/flow-diagram-model.js';
import { layoutRequest } from '../../../src/engine/flows/flow-layout.js';
import { LayoutPool } from '../../../src/engine/flows/layout-pool.js';
import { randomDag } from '../../support/random-dag.js';

const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
const request = (graph: unknown) => layoutRequest(diagramModel(graph, catalogue));
// Seconds of dagre work at least (the review's 500/2000 took 37 s), so a 150 ms budget always stops it.
const huge = request(randomDag(500, 2000));
const small = request({ nodes: [{ id: 'start', type: 'trigger.api' }, { id: 'done', type: 'end' }], edges: [{ from: 'start', to: 'done' }] });

let pool: LayoutPool | null = null;
afterEach(async () => {
  await pool?.close();
});

describe('LayoutPool', () => {
  it('stops a layout at its budget (over-budget), replaces the thread, and lays the next one out', async () => {
    pool = new LayoutPool({ budgetMs: 150 });
    expect((await pool.run(huge)).kind).toBe('over-budget');
    const next = await pool.run(small);
    expect(next.kind).toBe('laid-out');
    if (next.kind === 'laid-out') expect(next.result.nodes).toHaveLength(2);
    expect([pool.started, pool.overBudget]).toEqual([2, 1]);
  });

  it('bounds the waiting layouts: past maxQueued a layout is answered busy at once, and the queue drains in order', async () => {
    pool = new LayoutPool({ threads: 1, maxQueued: 1, budgetMs: 150 });
    const running = pool.run(huge);
    const queued = pool.run(small);
    expect(await pool.run(small)).toEqual({ kind: 'busy' });
    expect((await running).kind).toBe('over-budget');
    expect((await queued).kind).toBe('laid-out');
    expect(pool.started).toBe(2);
  });
});
