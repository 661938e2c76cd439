// The draft editor's check: a graph's validation problems and, when asked, its drawing, without saving (POST /api/v1/flows/:id/validate).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Catalogue } from '../../engine/catalogue.js';
import { DRAWING_STARTS, type FlowDiagrams } from '../../engine/flows/flow-diagrams.js';
import { markProblemNodes } from '../../engine/flows/flow-diagram-problems.js';
import { analyseGraph } from '../../engine/validator.js';
import { callerKey } from '../../auth/caller-key.js';

/** Bounds on a graph sent for checking (the validator's own limits; the drawing has its budget besides). */
export const DRAFT_CHECK_LIMITS = { nodes: 500, edges: 2000 } as const;

export function flowDraftOperations(deps: { catalogue: Catalogue; diagrams: FlowDiagrams }) {
  return [
    defineOperation({
      name: 'checkFlowDraft',
      summary: 'Check a flow graph: its validation problems and its drawing, without saving',
      description:
        `Answers the problems publishing would refuse (the same check as saveFlowDraft) and the draft drawn as SVG, problem nodes marked data-problem="true". Nothing is stored. At most ${DRAFT_CHECK_LIMITS.nodes} nodes and ${DRAFT_CHECK_LIMITS.edges} edges. ` +
        `A graph not drawn before counts as a new drawing: at most ${DRAWING_STARTS.limit} per caller per ${DRAWING_STARTS.windowMs / 1000} seconds (then 429 with Retry-After); one too large to lay out in 2 s is drawn as a list (data-drawing="list"). ` +
        'With drawing false the drawing is skipped (svg null): plain validation is never limited.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({
        id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit'),
        name: z.string().min(1).max(200).optional().describe('Drawn in the title; default the id'),
        graph: z.looseObject({ nodes: z.array(z.unknown()).max(DRAFT_CHECK_LIMITS.nodes), edges: z.array(z.unknown()).max(DRAFT_CHECK_LIMITS.edges) }),
        drawing: z.boolean().default(true).describe('Whether to draw the graph (default true); false answers the problems only, with svg null, and is never limited'),
      }),
      output: z
        .object({ problems: z.array(z.object({ nodeId: z.string().optional(), message: z.string() })), svg: z.string().nullable().describe('The drawing; null when drawing was false') })
        .meta({ id: 'FlowDraftCheck' }),
      example: { id: 'hello-flow', graph: { nodes: [{ id: 'start', type: 'trigger.api' }, { id: 'done', type: 'end' }], edges: [{ from: 'start', to: 'done' }] } },
      run: async (caller, input) => {
        // One validator pass serves the problems and the drawing.
        const analysis = analyseGraph(input.graph, deps.catalogue);
        const problems = analysis.problems;
        if (!input.drawing) return { problems, svg: null };
        return { problems, svg: markProblemNodes(await deps.diagrams.draftSvg(input.id, input.name ?? input.id, input.graph, callerKey(caller), analysis), problems) };
      },
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    flowDrafts: ReturnType<typeof flowDraftOperations>;
  }
}
