// assess_order's recognised question topics (docs/agents.md "assess_order"): keywords, opposites and negation, options.
import { describe, expect, it } from 'vitest';
import { matchTopic, optionPolarity, outcomeOfOption } from '../../../src/orders/assessment-topics.js';

describe('matchTopic', () => {
  it.each([
    ['Will this order complete?', 'completes', false],
    ['Will it be delivered?', 'completes', false],
    ['Will the order fail?', 'fails', false],
    ['Could it be rolled back?', 'fails', false],
    ['Will the customer cancel?', 'cancelled', false],
    ['Will it be declined?', 'declined', false],
    ['Will finance approve it?', 'approved', false],
    ['Will the reviewer reject it?', 'approved', true],
    ['Will the sellers accept?', 'sellers_accept', false],
    ['Will a seller reject its part?', 'sellers_accept', true],
    ['Is this order fraudulent?', 'fraud', false],
    ['How risky is it?', 'fraud', false],
    ['Is the buyer legitimate?', 'fraud', true],
    ['Will it ship on time?', 'ships_on_time', false],
    ['Will the delivery be late?', 'ships_on_time', true],
  ])('%s -> %s (inverted %s)', (question, topic, inverted) => {
    expect(matchTopic(question)).toEqual({ topic, inverted });
  });

  it('a negation asks for the opposite, a trailing "or not" does not', () => {
    expect(matchTopic('Will it not complete?')).toEqual({ topic: 'completes', inverted: true });
    expect(matchTopic("It won't be approved, right?")).toEqual({ topic: 'approved', inverted: true });
    expect(matchTopic('Will it complete or not?')).toEqual({ topic: 'completes', inverted: false });
  });

  it('an unrecognised question matches nothing', () => {
    expect(matchTopic('What colour is the mug?')).toBeNull();
    expect(matchTopic('Will the sellers like it?')).toBeNull();
  });
});

describe('options', () => {
  it('outcomeOfOption names the outcome an option means', () => {
    expect(['Completed', 'gets cancelled', 'rolled back', 'Failed', 'declined in review', 'shipped'].map(outcomeOfOption)).toEqual([
      'completed',
      'cancelled',
      'rolled_back',
      'failed',
      'declined',
      null,
    ]);
  });

  it('optionPolarity reads yes and no', () => {
    expect(['Yes', 'no.', 'likely', 'Unlikely', 'maybe'].map(optionPolarity)).toEqual(['yes', 'no', 'yes', 'no', null]);
  });
});
