// Which step's branch an instruction means ("rejected", "rejected at the fraud review"): the named step, or the one step that has it.
import type { Catalogue } from '../../engine/catalogue.js';
import { branchNamesFor } from './branch-words.js';
import { branchesOf, edgeBranch, namedNodes, nodeName, type DraftGraph, type DraftNode } from './draft-graph.js';
import { cannotChange } from './flow-change-refusals.js';
import { requireStep } from './step-matcher.js';

/** Branches people mean of an approval first when they say them without a step. */
const APPROVAL_BRANCHES = ['approved', 'rejected', 'escalated'];

/** The branch name on `node` that one of `names` means, or null. */
function branchOn(node: DraftNode, names: readonly string[], catalogue: Catalogue): string | null {
  const branches = branchesOf(node, catalogue);
  return names.find((b) => branches.includes(b)) ?? null;
}

/**
 * The step and branch an instruction names. With a step phrase, the step among those having the branch (else among all,
 * to refuse precisely); without one, the only step having the branch (approvals first for approval words).
 */
export function resolveBranchSource(branchPhrase: string, stepPhrase: string | null, graph: DraftGraph, catalogue: Catalogue): { node: DraftNode; branch: string } {
  const names = branchNamesFor(branchPhrase);
  if (!names) throw cannotChange(`"${branchPhrase}" names no branch.`);
  const all = namedNodes(graph);
  const having = all.filter((n) => branchOn(n, names, catalogue) !== null);
  if (stepPhrase !== null) {
    const node = having.length > 0 ? requireStepOrNull(stepPhrase, having, catalogue) ?? requireStep(stepPhrase, all, catalogue) : requireStep(stepPhrase, all, catalogue);
    const branch = branchOn(node, names, catalogue);
    if (!branch) throw cannotChange(`${nodeName(node)} has no ${names.join(' or ')} branch (its branches: ${branchesOf(node, catalogue).join(', ') || 'none'}).`);
    return { node, branch };
  }
  let candidates = having;
  const approvals = having.filter((n) => n.type === 'human.approval');
  if (approvals.length > 0 && names.some((b) => APPROVAL_BRANCHES.includes(b))) candidates = approvals;
  // Several steps have it: the one whose branch is wired is the path people speak of (an unwired failed branch rolls back).
  const wired = candidates.filter((n) => graph.edges.some((e) => e.from === n.id && edgeBranch(e, graph, catalogue) === branchOn(n, names, catalogue)));
  if (candidates.length > 1 && wired.length === 1) candidates = wired;
  if (candidates.length === 0) throw cannotChange(`no step of this flow has a ${names.join(' or ')} branch.`);
  if (candidates.length > 1) {
    throw cannotChange(
      `${candidates.map(nodeName).join(', ')} all have a ${names.join(' or ')} branch; say which, e.g. "send orders ${names[0]} at ${candidates[0].label ?? candidates[0].id} to ...".`,
    );
  }
  const node = candidates[0];
  return { node, branch: branchOn(node, names, catalogue)! };
}

/** The step a phrase names among `nodes`, or null when none or several match (the caller then looks wider). */
function requireStepOrNull(phrase: string, nodes: readonly DraftNode[], catalogue: Catalogue): DraftNode | null {
  try {
    return requireStep(phrase, nodes, catalogue);
  } catch {
    return null;
  }
}
