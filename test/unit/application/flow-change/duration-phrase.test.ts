// Rule: durations said in words become the flow duration format, in the largest exact unit; anything else is not a duration.
import { describe, expect, it } from 'vitest';
import { parseDurationPhrase } from '../../../../src/application/flow-change/duration-phrase.js';

describe('parseDurationPhrase', () => {
  it.each([
    ['3 days', '3d'], ['1 day', '1d'], ['2h', '2h'], ['90 minutes', '90m'], ['120 minutes', '2h'], ['a week', '7d'], ['two weeks', '14d'],
    ['36 hours', '36h'], ['1.5 days', '36h'], ['30 secs', '30s'], ['half an hour', '30m'], ['48 hrs', '2d'],
  ])('reads "%s" as %s', (phrase, expected) => {
    expect(parseDurationPhrase(phrase)).toBe(expected);
  });

  it.each(['soon', '0 days', '3 fortnights', '0.5 seconds', '9999999 days'])('refuses "%s"', (phrase) => {
    expect(parseDurationPhrase(phrase)).toBeNull();
  });
});
