// The date bounds of a question ("since Monday", "yesterday", "before Nov 1"), read in UTC and never in the future.
import * as chrono from 'chrono-node';

const DAY_MS = 86_400_000;

/**
 * chrono reads at most this many characters of a question (docs/assistant.md): a date phrase sits in the
 * first words of a chat question, and chrono's cost grows with the text it is given, so a 4,000-character
 * message is never handed to it whole.
 */
export const DATE_WINDOW_CHARS = 300;

export interface DateBounds {
  /** Epoch ms, inclusive. */
  after?: number;
  /** Epoch ms, exclusive for a day given alone ("before Nov 1"), inclusive end of a whole day ("yesterday"). */
  before?: number;
}

const startOfUtcDay = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

/**
 * The start (00:00 UTC) of the day a phrase names, by the contract's rule (section 11): a weekday is its latest
 * occurrence on or before today ("since Monday" on a Friday is four days back, on a Monday today; "last Monday"
 * is the one before today's week day, "next Monday" the coming one), and a month and day without a year that would
 * fall after today is last year's. Null when the phrase names no calendar day (a relative span such as "last
 * week", or a time of day alone): chrono's own instant is then used.
 */
function namedDay(result: chrono.ParsedResult, now: number): number | null {
  const start = result.start;
  const today = startOfUtcDay(now);
  const weekday = start.get('weekday');
  if (start.isCertain('weekday') && !start.isCertain('day') && weekday !== null) {
    const todayWeekday = new Date(today).getUTCDay();
    const words = result.text.toLowerCase();
    if (/\bnext\b/.test(words)) return today + (((weekday - todayWeekday + 7) % 7) || 7) * DAY_MS;
    const back = (todayWeekday - weekday + 7) % 7;
    return today - (/\b(last|past|previous)\b/.test(words) && back === 0 ? 7 : back) * DAY_MS;
  }
  if (start.isCertain('month') && !start.isCertain('year')) {
    const year = new Date(today).getUTCFullYear();
    const month = start.get('month')! - 1;
    const day = start.isCertain('day') ? start.get('day')! : 1;
    const thisYear = Date.UTC(year, month, day);
    return thisYear > today ? Date.UTC(year - 1, month, day) : thisYear;
  }
  // A full date ("2026-11-01"), or "today"/"yesterday": chrono read it in UTC (the reference below).
  if (start.isCertain('day') && !result.tags().has('result/relativeDate')) return startOfUtcDay(start.date().getTime());
  return null;
}

/** The after/before bounds a question's first date phrase sets, in epoch ms (empty when it names none). */
export function readDateBounds(raw: string, now: number): DateBounds {
  const text = raw.slice(0, DATE_WINDOW_CHARS);
  // timezone 0: chrono reads "yesterday" and "3pm" in UTC whatever the machine's zone is.
  const parsed = chrono.parse(text, { instant: new Date(now), timezone: 0 }, { forwardDate: false });
  const first = parsed[0];
  if (!first) return {};
  const named = namedDay(first, now);
  // A time said with the day ("since Friday 3pm") moves into it; a day alone stands for all of it.
  const timed = first.start.isCertain('hour');
  const day = named !== null && !timed ? named : null;
  const start =
    named === null ? first.start.date().getTime() : named + (timed ? ((first.start.get('hour') ?? 0) * 60 + (first.start.get('minute') ?? 0)) * 60_000 : 0);
  const lead = text.slice(Math.max(0, first.index - 12), first.index + 1);
  if (/\b(before|until|till|up to|prior to)\b/i.test(lead)) return { before: start };
  if (first.end) {
    const endDay = first.end.isCertain('hour') ? null : startOfUtcDay(first.end.date().getTime());
    return { after: start, before: endDay === null ? first.end.date().getTime() : endDay + DAY_MS - 1 };
  }
  if (day === null) return { after: start };
  // "since Monday", "after Nov 1": from the start of that day on. "today", "yesterday", "on Monday": that whole day.
  const prefix = text.slice(0, first.index);
  const wholeDay = /^(today|yesterday)$/i.test(first.text.trim()) || /\bon\s*$/i.test(prefix) || /^on\b/i.test(first.text);
  if (wholeDay && !/\b(since|after|from)\s*$/i.test(prefix)) return { after: day, before: day + DAY_MS - 1 };
  return { after: day };
}
