// Durations said in words ("3 days", "1 day", "2h", "90 minutes", "a week") turned into the flow duration format ("3d").
import { isDuration } from '../../platform/duration.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** Unit words to their letter; weeks become days because flows have no week unit. */
const UNIT_WORDS: [RegExp, string][] = [
  [/^(s|secs?|seconds?)$/, 's'],
  [/^(m|mins?|minutes?)$/, 'm'],
  [/^(h|hrs?|hours?)$/, 'h'],
  [/^(d|days?)$/, 'd'],
  [/^(w|wks?|weeks?)$/, 'w'],
];

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30, sixty: 60, ninety: 90, half: 0.5,
};

/** A regex source matching one duration phrase inside a sentence (the parser uses it to find the value). */
export const DURATION_PHRASE_SOURCE =
  String.raw`(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|sixty|ninety|half an?)\s*-?\s*(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|wks?|w)\b`;

/**
 * The duration string for a phrase, in the largest unit that divides it exactly ("36 hours" -> "36h",
 * "2 weeks" -> "14d", "1.5 days" -> "36h"); null when the phrase is not a duration the flow format can hold.
 */
export function parseDurationPhrase(phrase: string): string | null {
  const match = /^\s*(\d+(?:\.\d+)?|[a-z]+(?:\s+an?)?)\s*-?\s*([a-z]+)\s*$/i.exec(phrase.trim().toLowerCase());
  if (!match) return null;
  const [, amountText, unitText] = match as unknown as [string, string, string];
  const amount = /^\d/.test(amountText) ? Number(amountText) : NUMBER_WORDS[amountText.split(/\s+/)[0]];
  const unit = UNIT_WORDS.find(([re]) => re.test(unitText))?.[1];
  if (amount === undefined || !Number.isFinite(amount) || amount <= 0 || unit === undefined) return null;
  const seconds = amount * UNIT_SECONDS[unit];
  if (!Number.isInteger(seconds)) return null;
  for (const letter of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_SECONDS[letter];
    if (seconds % size === 0) {
      const text = `${seconds / size}${letter}`;
      return isDuration(text) ? text : null;
    }
  }
  return null;
}
