// Remove: take a step out, connecting what led into it to where it led on its primary branch; steps only it reached go too.
import type { Catalogue } from '../../engine/catalogue.js';
import { deleteNode, edgeBranch, nameById, namedNodes, nodeName, primaryEdge, pruneCutOff, reachableIds, type DraftGraph } from './draft-graph.js';
import { cannotChange } from './flow-change-refusals.js';
import type { FlowInstruction } from './flow-instruction.js';
import { requireStep } from './step-matcher.js';

type Remove = Extract<FlowInstruction, { kind: 'remove' }>;

/** Applies a remove; returns the sentences saying what changed. */
export function removeStep(graph: DraftGraph, ins: Remove, catalogue: Catalogue): string[] {
  const node = requireStep(ins.step, namedNodes(graph), catalogue);
  if (catalogue.get(node.type)?.kind === 'trigger') throw cannotChange(`${nodeName(node)} is the trigger; a flow needs exactly one, so it cannot be removed.`);
  const before = reachableIds(graph, catalogue);
  const next = primaryEdge(graph, node, catalogue)?.to ?? null;
  const changes = [`Removed ${nodeName(node)} (${node.type}).`];
  const rewired: string[] = [];
  const dropped: string[] = [];
  for (const edge of graph.edges.filter((e) => e.to === node.id && e.from !== node.id)) {
    const what = `${nameById(graph, edge.from)} (${edgeBranch(edge, graph, catalogue) ?? 'its default branch'})`;
    // A loop back to the step that led here would be a cycle of one: that edge goes instead.
    if (next !== null && next !== edge.from && next !== node.id) {
      edge.to = next;
      rewired.push(what);
    } else dropped.push(what);
  }
  if (rewired.length > 0) changes.push(`What led to it now leads to ${nameById(graph, next!)}: ${rewired.join(', ')}.`);
  if (dropped.length > 0) changes.push(`It had no next step to connect to, so these connections were dropped: ${dropped.join(', ')}.`);
  deleteNode(graph, node.id);
  const cut = pruneCutOff(graph, before, catalogue);
  if (cut.length > 0) changes.push(`No longer reachable, so removed too: ${cut.map(nodeName).join(', ')}.`);
  return changes;
}
