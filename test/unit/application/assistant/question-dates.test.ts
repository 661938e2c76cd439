// How chat reads dates (contract section 11): a weekday or relative date is its latest occurrence on or before today,
// in UTC, on fixed dates covering every weekday as "today" (never the real calendar), in any machine time zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDateBounds } from '../../../../src/application/assistant/question-dates.js';

const DAY = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** Monday 2026-11-23 .. Sunday 2026-11-29, each at 10:30 UTC: one "today" per weekday. */
const WEEK = Array.from({ length: 7 }, (_, i) => Date.UTC(2026, 10, 23 + i, 10, 30));
const utcDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function weekdayTable() {
  for (const now of WEEK) {
    const today = new Date(now).getUTCDay();
    const todayStart = now - (now % DAY);
    describe(`asked on ${WEEKDAYS[today]} ${new Date(now).toISOString().slice(0, 10)}`, () => {
      for (const [named, name] of WEEKDAYS.entries()) {
        const back = (today - named + 7) % 7;
        it(`"since ${name}" is ${back} day(s) back, from 00:00 UTC, never in the future`, () => {
          expect(iso(readDateBounds(`how many orders since ${name}?`, now).after)).toBe(iso(todayStart - back * DAY));
        });
      }
    });
  }
}

describe('weekdays: the latest occurrence on or before today (UTC)', () => {
  weekdayTable();

  it('"since Monday" asked on a Friday is four days back; on a Monday it is today', () => {
    expect(readDateBounds('since Monday', Date.UTC(2026, 10, 27, 9)).after).toBe(utcDay('2026-11-23'));
    expect(readDateBounds('since Monday', Date.UTC(2026, 10, 23, 9)).after).toBe(utcDay('2026-11-23'));
  });

  it('"on Monday" is that whole day; "last Monday" is the one before today, "next Monday" the coming one', () => {
    const friday = Date.UTC(2026, 10, 27, 9);
    expect(readDateBounds('orders on Monday', friday)).toEqual({ after: utcDay('2026-11-23'), before: utcDay('2026-11-24') - 1 });
    expect(readDateBounds('since last Monday', Date.UTC(2026, 10, 23, 9)).after).toBe(utcDay('2026-11-16'));
    expect(readDateBounds('since last Monday', friday).after).toBe(utcDay('2026-11-23'));
    expect(readDateBounds('since next Monday', friday).after).toBe(utcDay('2026-11-30'));
  });

  it('a time said with the weekday is kept, in UTC', () => {
    expect(readDateBounds('since Wednesday 3pm', Date.UTC(2026, 10, 27, 9)).after).toBe(Date.UTC(2026, 10, 25, 15));
  });
});

describe('relative dates, in UTC', () => {
  for (const now of WEEK) {
    const day = WEEKDAYS[new Date(now).getUTCDay()];
    const todayStart = now - (now % DAY);
    it(`on a ${day}: "today" and "yesterday" are whole UTC days, "since yesterday" is open-ended`, () => {
      expect(readDateBounds('orders created today', now)).toEqual({ after: todayStart, before: todayStart + DAY - 1 });
      expect(readDateBounds('orders yesterday', now)).toEqual({ after: todayStart - DAY, before: todayStart - 1 });
      expect(readDateBounds('orders since yesterday', now)).toEqual({ after: todayStart - DAY });
      expect(readDateBounds('how many orders before yesterday', now)).toEqual({ before: todayStart - DAY });
    });
    it(`on a ${day}: "last week" and "in the last 3 days" count back from now`, () => {
      expect(readDateBounds('completed orders last week', now)).toEqual({ after: now - 7 * DAY });
      expect(readDateBounds('orders in the last 3 days', now)).toEqual({ after: now - 3 * DAY });
    });
  }
});

describe('month and day without a year: never in the future', () => {
  const friday = Date.UTC(2026, 10, 27, 9);
  it('"before Nov 1" and "after Nov 1" are this year when that day has come', () => {
    expect(readDateBounds('orders before Nov 1', friday)).toEqual({ before: utcDay('2026-11-01') });
    expect(readDateBounds('orders after Nov 1', friday)).toEqual({ after: utcDay('2026-11-01') });
  });
  it('a month and day still to come this year is last year\'s ("after Dec 5" on Nov 27 is 2025-12-05)', () => {
    expect(readDateBounds('orders after Dec 5', friday)).toEqual({ after: utcDay('2025-12-05') });
    expect(readDateBounds('orders since Nov 28', friday)).toEqual({ after: utcDay('2025-11-28') });
    expect(readDateBounds('orders since Nov 27', friday)).toEqual({ after: utcDay('2026-11-27') });
  });
  it('a full date is taken as written', () => {
    expect(readDateBounds('orders since 2026-11-01', friday)).toEqual({ after: utcDay('2026-11-01') });
  });
  it('no date phrase sets no bound', () => {
    expect(readDateBounds('orders over $500', friday)).toEqual({});
  });
});

describe('the machine time zone does not move a date (UTC+14 and UTC-8)', () => {
  const saved = process.env.TZ;
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
  for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
    describe(zone, () => {
      beforeAll(() => {
        process.env.TZ = zone;
      });
      // 23:30 UTC on Friday is already Saturday in Kiritimati; 00:30 UTC on Monday is still Sunday in Los Angeles.
      it('"since Monday", "yesterday" and "before Nov 1" are the same UTC days', () => {
        const lateFriday = Date.UTC(2026, 10, 27, 23, 30);
        const earlyMonday = Date.UTC(2026, 10, 23, 0, 30);
        expect(new Date(lateFriday).getTimezoneOffset(), 'the zone is in effect').not.toBe(0);
        expect(readDateBounds('since Monday', lateFriday).after).toBe(utcDay('2026-11-23'));
        expect(readDateBounds('since Monday', earlyMonday).after).toBe(utcDay('2026-11-23'));
        expect(readDateBounds('orders yesterday', earlyMonday)).toEqual({ after: utcDay('2026-11-22'), before: utcDay('2026-11-23') - 1 });
        expect(readDateBounds('orders before Nov 1', lateFriday)).toEqual({ before: utcDay('2026-11-01') });
      });
    });
  }
});
