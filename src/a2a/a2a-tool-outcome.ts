// How a tool's refusal ends an A2A task (contract section 11): role or input refused -> REJECTED, a domain error -> FAILED.
import { TaskState } from '@a2a-js/sdk';
import { DomainError, ValidationError } from '../domain/errors.js';

export interface Refusal {
  state: TaskState.TASK_STATE_REJECTED | TaskState.TASK_STATE_FAILED;
  text: string;
  /** `{ error, issues }` for invalid input, so a client can show each field. */
  data?: Record<string, unknown>;
}

/**
 * A refused role ends REJECTED with the message naming the role needed; input that does not
 * validate ends REJECTED listing the invalid fields (and a data part `{ error, issues }`); any other
 * refusal (unknown order, node not waiting, flow not published, not available yet) ends FAILED with
 * the REST message. Null for an error that is not a refusal: a bug, answered without details.
 */
export function refusalOf(err: unknown): Refusal | null {
  if (err instanceof ValidationError) {
    const fields = err.issues.map((i) => `${i.path || '(input)'}: ${i.message}`).join('; ');
    return { state: TaskState.TASK_STATE_REJECTED, text: `${err.message}: ${fields}`, data: { error: err.message, issues: err.issues } };
  }
  if (err instanceof DomainError) {
    if (err.kind === 'forbidden' || err.kind === 'unauthenticated') return { state: TaskState.TASK_STATE_REJECTED, text: err.message };
    return { state: TaskState.TASK_STATE_FAILED, text: err.message };
  }
  return null;
}
