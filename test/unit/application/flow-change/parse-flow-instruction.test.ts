// Rule: the propose_flow_change grammar reads each documented phrasing into its typed edit, and reads nothing else.
import { describe, expect, it } from 'vitest';
import { parseFlowInstruction } from '../../../../src/application/flow-change/parse-flow-instruction.js';

describe('parseFlowInstruction', () => {
  it.each([
    ['add an approval before capture in the storefront flow', { kind: 'insert', where: 'before', step: 'capture', branch: null, what: { type: 'an approval' } }],
    ['Please add a fraud check after pricing.', { kind: 'insert', where: 'after', step: 'pricing', what: { type: 'a fraud check' } }],
    ['add a 2 day delay after ship', { kind: 'insert', where: 'after', step: 'ship', what: { type: 'a delay', duration: '2d' } }],
    ['on rejection notify sellers', { kind: 'insert', where: 'after', step: null, branch: 'rejection', what: { type: 'notify', audience: 'seller' } }],
    ['notify sellers on rejection', { kind: 'insert', where: 'after', step: null, branch: 'rejection', what: { type: 'notify', audience: 'seller' } }],
    ['when rejected at the fraud review, notify the buyer', { kind: 'insert', step: 'the fraud review', branch: 'rejected', what: { audience: 'customer' } }],
    ['remove the fraud check', { kind: 'remove', step: 'the fraud check' }],
    ['skip the fraud review step', { kind: 'remove', step: 'the fraud review step' }],
    ['send rejected orders to cancel', { kind: 'reconnect', branch: 'rejected', step: null, target: 'cancel' }],
    ['send orders rejected by the fraud review to cancel', { kind: 'reconnect', branch: 'rejected', step: 'the fraud review', target: 'cancel' }],
    ['connect the escalated branch of the approval to declined', { kind: 'reconnect', branch: 'escalated', step: 'the approval', target: 'declined' }],
    ['route escalated approvals to cancel', { kind: 'reconnect', branch: 'escalated', step: 'approvals', target: 'cancel' }],
    ['on timeout go to cancelled', { kind: 'reconnect', branch: 'timeout', step: null, target: 'cancelled' }],
    ['wait 3 days for sellers', { kind: 'params', step: 'sellers', param: null, value: '3 days' }],
    ['give sellers 5 days', { kind: 'params', step: 'sellers', param: null, value: '5 days' }],
    ['make the approval timeout 1 day', { kind: 'params', step: 'the approval', param: 'timeout', value: '1 day' }],
    ['set the delay to 2h', { kind: 'params', step: 'the delay', param: null, value: '2h' }],
    ['set the approval assignee to Finance', { kind: 'params', step: 'the approval', param: 'assignee', value: 'Finance' }],
    ['set the acceptance loop max passes to 5', { kind: 'params', step: 'the acceptance loop', param: 'max passes', value: '5' }],
  ])('reads "%s"', (text, expected) => {
    expect(parseFlowInstruction(text)).toMatchObject(expected);
  });

  it.each(['make coffee', 'what needs attention?', 'add', 'hello'])('reads nothing in "%s"', (text) => {
    expect(parseFlowInstruction(text)).toBeNull();
  });
});
