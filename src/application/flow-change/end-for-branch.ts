// The End node a branch without a destination gets: declined after a refusal, failed after a failure or timeout.
import type { DraftGraph, DraftNode } from './draft-graph.js';
import { unusedId } from './draft-graph.js';

/** Branches that mean the order was refused: they end `declined`. */
const DECLINING = new Set(['rejected', 'escalated', 'violation', 'high']);
/** Branches that mean something did not happen: they end `failed`. */
const FAILING = new Set(['failed', 'timeout', 'exhausted']);

/** The outcome an End reached by `branch` has, or null when the branch is not an ending one (it continues instead). */
export function endingOutcome(branch: string): 'declined' | 'failed' | null {
  if (DECLINING.has(branch)) return 'declined';
  if (FAILING.has(branch)) return 'failed';
  return null;
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Adds an End node for `from`'s `branch` with `outcome` and a reason naming both; returns it. */
export function addEnd(graph: DraftGraph, from: DraftNode, branch: string, outcome: string): DraftNode {
  const what = from.label ?? from.id;
  const end: DraftNode = {
    id: unusedId(graph, `${from.id}_${branch}`),
    type: 'end',
    label: `${capitalise(what)}: ${branch}`,
    params: { outcome, reason: `${capitalise(branch)} at ${what}` },
  };
  graph.nodes.push(end);
  return end;
}
