// Why propose_flow_change drafts nothing: the refusals it answers (DomainError, kind invalid_input), each saying what would work.
import { DomainError } from '../../domain/errors.js';
import type { DraftNode } from './draft-graph.js';
import { nodeName } from './draft-graph.js';

/** The kinds of instruction the grammar understands, with an example of each (the refusal lists them). */
export const UNDERSTOOD_INSTRUCTIONS: readonly string[] = [
  'insert a step before or after another ("add an approval before capture", "add a fraud check after pricing", "add a 2 day delay after ship")',
  'insert a step on a branch ("on rejection notify sellers", "notify the buyer when rejected at the fraud review")',
  'remove a step, connecting around it ("remove the fraud check")',
  'reconnect a branch ("send rejected orders to cancel", "connect the escalated branch of the approval to declined")',
  'change a param ("wait 3 days for sellers", "make the approval timeout 1 day", "set the delay to 2h", "set the approval assignee to finance")',
];

/** An instruction no rule of the grammar reads. */
export function notUnderstood(instruction: string): DomainError {
  return new DomainError(
    'instruction_not_understood',
    `Nothing changed: "${instruction}" is not an instruction propose_flow_change understands. It understands: ${UNDERSTOOD_INSTRUCTIONS.join('; ')}.`,
    'invalid_input',
  );
}

/** A phrase that names no step of the flow (`what` says which kind of step was looked for). */
export function stepNotFound(phrase: string, nodes: readonly DraftNode[], what = 'step'): DomainError {
  const steps = nodes.map(nodeName).join(', ');
  return new DomainError('step_not_found', `Nothing changed: no ${what} of this flow matches "${phrase}". Its steps: ${steps || 'none'}.`, 'invalid_input');
}

/** A phrase that names several steps equally well. */
export function stepAmbiguous(phrase: string, nodes: readonly DraftNode[]): DomainError {
  return new DomainError(
    'step_ambiguous',
    `Nothing changed: "${phrase}" could mean ${nodes.map(nodeName).join(' or ')}; name one by its id or label.`,
    'invalid_input',
  );
}

/** An edit that is understood but cannot be made on this graph. */
export function cannotChange(message: string): DomainError {
  return new DomainError('change_not_possible', `Nothing changed: ${message}`, 'invalid_input');
}
