// Node type `human.approval`: waits for a person to approve or reject; a timeout escalates (spec "Approval").
import { z } from 'zod';
import { durationSchema, parseDuration } from '../platform/duration.js';
import type { NodeTypeDef, StepResult, WaitResolution, WaitSpec } from '../engine/node-type.js';
import { renderTemplate } from '../engine/template.js';

export const humanApprovalParams = z.strictObject({
  /** Template over {{order.*}} and {{vars.*}}. */
  title: z.string().min(1).max(200).default('Approve order {{order.id}}'),
  /** Free text: who should decide. */
  assignee: z.string().min(1).max(200).default('manager'),
  timeout: durationSchema.default('2d'),
});

export type HumanApprovalParams = z.infer<typeof humanApprovalParams>;

/** What the node writes to nodes.<id>: `decision` is null on escalation. */
export interface ApprovalOutput {
  decision: 'approved' | 'rejected' | null;
  by: string;
  note: string | null;
  outcome: 'approved' | 'rejected' | 'escalated';
}

export const humanApproval: NodeTypeDef<HumanApprovalParams> = {
  type: 'human.approval',
  kind: 'wait',
  label: 'Approval',
  description: 'Waits for a person to approve or reject the order; nobody deciding before the timeout escalates.',
  params: humanApprovalParams,
  branches: () => ['approved', 'rejected', 'escalated'],
  defaultBranch: null,
  outputs: '{ decision, by, note, outcome }; on timeout outcome "escalated", by "timeout", decision null.',
  wait(ctx): WaitSpec {
    const { title, assignee, timeout } = ctx.params;
    return {
      kind: 'approval',
      title: renderTemplate(title, { order: ctx.order, vars: ctx.vars }),
      assignee,
      // The amount the approver is asked about: the order total in minor units.
      amount: ctx.order.total,
      timeoutMs: parseDuration(timeout),
      timeoutBranch: 'escalated',
    };
  },
  resolveWait(_params, resolution: WaitResolution): StepResult {
    if (resolution.kind === 'approval') {
      const output: ApprovalOutput = {
        decision: resolution.decision,
        by: resolution.by,
        note: resolution.note,
        outcome: resolution.decision,
      };
      return { branch: resolution.decision, output, summary: `${capitalise(resolution.decision)} by ${resolution.by}` };
    }
    if (resolution.kind === 'timeout') {
      const output: ApprovalOutput = { decision: null, by: 'timeout', note: null, outcome: 'escalated' };
      return { branch: 'escalated', output, summary: 'Timed out: escalated' };
    }
    throw new Error(`human.approval cannot be resolved by a ${resolution.kind} resolution`);
  },
};

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
