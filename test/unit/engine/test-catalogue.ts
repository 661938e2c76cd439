// Test fixtures for the engine: a catalogue of the generic node types plus a fake step type, and small graph builders.
import { z } from 'zod';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import type { Graph } from '../../../src/engine/graph.js';
import type { NodeTypeDef } from '../../../src/engine/node-type.js';

/** A step like the commerce ones: branches ok/failed, `failed` optional and its failure branch. */
export const testStep: NodeTypeDef<{ label?: string }> = {
  type: 'test.step',
  kind: 'step',
  label: 'Test step',
  description: 'A step for engine tests.',
  params: z.strictObject({ label: z.string().optional() }),
  branches: () => ['ok', 'failed'],
  defaultBranch: 'ok',
  optionalBranches: ['failed'],
  failureBranch: 'failed',
  run: () => ({ branch: 'ok' }),
};

/** A step whose branches come from its params and which has no default branch. */
export const testChoice: NodeTypeDef<{ options: string[] }> = {
  type: 'test.choice',
  kind: 'step',
  label: 'Test choice',
  description: 'A step with param-defined branches.',
  params: z.strictObject({ options: z.array(z.string()).min(1) }),
  branches: (p) => p.options,
  defaultBranch: null,
  run: (ctx) => ({ branch: ctx.params.options[0]! }),
};

export const testCatalogue = createCatalogue([...genericNodeTypes, testStep, testChoice]);

/** trigger → a → done(completed). */
export function linearGraph(): Graph {
  return {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'a', type: 'test.step' },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
    ],
    edges: [
      { from: 'start', to: 'a' },
      { from: 'a', to: 'done' },
    ],
  };
}
