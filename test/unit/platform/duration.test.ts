// Tests for duration strings in params (runtime contract section 5).
import { describe, expect, it } from 'vitest';
import { durationSchema, isDuration, parseDuration } from '../../../src/platform/duration.js';

describe('duration', () => {
  it('contract 5: <n>s, <n>m, <n>h and <n>d convert to milliseconds', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('30d')).toBe(30 * 86_400_000);
  });

  it.each(['2', '2w', '1.5h', '0s', '-1d', ' 2d', '2d ', '', 'd', '02d', '1234567d'])(
    'contract 5: "%s" is not a duration',
    (text) => {
      expect(isDuration(text)).toBe(false);
      expect(() => parseDuration(text)).toThrow(/Invalid duration/);
      expect(durationSchema.safeParse(text).success).toBe(false);
    },
  );

  it('contract 5: the schema explains the accepted form', () => {
    const result = durationSchema.safeParse('soon');
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toMatch(/"2d"/);
  });
});
