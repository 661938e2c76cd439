// A proposed flow change: the instruction read by the grammar, applied to a copy of the draft, validated; the draft itself untouched.
import type { Catalogue } from '../../engine/catalogue.js';
import { validateGraph, type Problem } from '../../engine/validator.js';
import { changeParam } from './change-param.js';
import { copyDraft, type DraftGraph } from './draft-graph.js';
import { notUnderstood } from './flow-change-refusals.js';
import { insertStep } from './insert-step.js';
import { parseFlowInstruction } from './parse-flow-instruction.js';
import { reconnectBranch } from './reconnect-branch.js';
import { removeStep } from './remove-step.js';

export interface FlowChangeProposal {
  graph: DraftGraph;
  problems: Problem[];
  /** One paragraph: every change made, the validation result, and that nothing was saved. */
  summary: string;
}

/** The problems sentence of a summary. */
function problemsText(problems: readonly Problem[]): string {
  if (problems.length === 0) return 'The changed flow validates with no problems.';
  const shown = problems.slice(0, 3).map((p) => p.message).join('; ');
  return `The changed flow has ${problems.length} validation problem${problems.length === 1 ? '' : 's'} (${shown}${problems.length > 3 ? '; …' : ''}), so it could not be published as it is.`;
}

/**
 * Reads `instruction`, applies it to a copy of `draft` and validates the result. Throws a DomainError
 * (invalid_input) when the instruction is not understood or cannot be applied; never changes `draft`.
 */
export function proposeFlowChange(draft: unknown, instruction: string, catalogue: Catalogue): FlowChangeProposal {
  const parsed = parseFlowInstruction(instruction);
  if (!parsed) throw notUnderstood(instruction);
  const graph = copyDraft(draft);
  const changes =
    parsed.kind === 'insert' ? insertStep(graph, parsed, catalogue)
    : parsed.kind === 'remove' ? removeStep(graph, parsed, catalogue)
    : parsed.kind === 'reconnect' ? reconnectBranch(graph, parsed, catalogue)
    : changeParam(graph, parsed, catalogue);
  const problems = validateGraph(graph, catalogue);
  const summary = [...changes, problemsText(problems), 'Nothing was saved: the draft is unchanged until the change is saved.'].join(' ');
  return { graph, problems, summary };
}
