// Tests for the `human.approval` node (spec "Approval", "Approval branches"; runtime contract section 5).
import { describe, expect, it } from 'vitest';
import { humanApproval } from '../../../src/nodes/human-approval.js';
import { stepContext, testOrder } from './step-context.js';

describe('human.approval', () => {
  it('spec Approval: defaults are title "Approve order {{order.id}}", assignee manager, timeout 2 days', () => {
    expect(humanApproval.params.parse({})).toEqual({ title: 'Approve order {{order.id}}', assignee: 'manager', timeout: '2d' });
  });

  it('spec Approval branches: approved, rejected, escalated', () => {
    expect(humanApproval.branches(humanApproval.params.parse({}))).toEqual(['approved', 'rejected', 'escalated']);
    expect(humanApproval.defaultBranch).toBeNull();
  });

  it('contract 5: the wait renders the title template over order and vars; timeout and assignee come from params', () => {
    const params = humanApproval.params.parse({ title: 'Risk {{vars.fraud.score}} on {{order.id}}', assignee: 'trust', timeout: '3h' });
    const spec = humanApproval.wait!(stepContext(params, { order: testOrder({ id: 'ord_7', total: 4200 }), vars: { fraud: { score: 95 } } }));
    expect(spec).toEqual({
      kind: 'approval',
      title: 'Risk 95 on ord_7',
      assignee: 'trust',
      amount: 4200,
      timeoutMs: 3 * 3_600_000,
      timeoutBranch: 'escalated',
    });
  });

  it('spec Approval: the default wait is 2 days and titled with the order id', () => {
    const spec = humanApproval.wait!(stepContext(humanApproval.params.parse({})));
    expect(spec.title).toBe('Approve order ord_1');
    expect(spec.timeoutMs).toBe(2 * 86_400_000);
  });

  it('contract 5: a decision takes its branch with output { decision, by, note, outcome }', () => {
    const params = humanApproval.params.parse({});
    expect(humanApproval.resolveWait!(params, { kind: 'approval', decision: 'approved', by: 'ann@example.com', note: 'ok', at: 5 })).toMatchObject({
      branch: 'approved',
      output: { decision: 'approved', by: 'ann@example.com', note: 'ok', outcome: 'approved' },
    });
    expect(humanApproval.resolveWait!(params, { kind: 'approval', decision: 'rejected', by: 'api', note: null, at: 5 })).toMatchObject({
      branch: 'rejected',
      output: { decision: 'rejected', by: 'api', note: null, outcome: 'rejected' },
    });
  });

  it('contract 5: a timeout escalates with outcome escalated, by "timeout", decision null', () => {
    const result = humanApproval.resolveWait!(humanApproval.params.parse({}), { kind: 'timeout', at: 9 });
    expect(result.branch).toBe('escalated');
    expect(result.output).toEqual({ decision: null, by: 'timeout', note: null, outcome: 'escalated' });
  });

  it('contract 5: a bad timeout or an unknown param is refused', () => {
    expect(humanApproval.params.safeParse({ timeout: '2 days' }).success).toBe(false);
    expect(humanApproval.params.safeParse({ approver: 'x' }).success).toBe(false);
  });
});
