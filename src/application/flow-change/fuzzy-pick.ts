// One fuzzy pick over named things (fuse.js token search): the exact name wins, else the clearly best close match.
import Fuse from 'fuse.js';
import { cleanPhrase } from './phrase-text.js';

/** What a phrase picked: one thing, nothing close enough, or several equally close (the caller asks which). */
export type Pick<T> = { kind: 'found'; item: T } | { kind: 'none' } | { kind: 'ambiguous'; items: T[] };

/** A thing to pick, with its names: `exact` names win outright, `fuzzy` names are searched (both already cleaned). */
export interface Pickable<T> {
  item: T;
  exact: readonly string[];
  fuzzy: readonly string[];
}

/** Scores (0 = perfect) above this are not a match. */
const MAX_SCORE = 0.35;
/** Matches within this of the best are as good as the best: the phrase does not tell them apart. */
const TIE = 0.05;
/**
 * fuse.js compares at most this many characters of a phrase: its cost grows with the pattern (about 70 ms per
 * 1,000 characters against a flow's names), and no name is longer (a step label is at most 200 characters).
 */
export const FUZZY_PHRASE_CHARS = 200;

/** Picks the thing a phrase names; `exact` names are compared whole, then fuse.js searches the `fuzzy` names only. */
export function fuzzyPick<T>(phrase: string, things: readonly Pickable<T>[]): Pick<T> {
  const text = cleanPhrase(phrase);
  if (text.length === 0 || things.length === 0) return { kind: 'none' };
  const exact = things.filter((t) => t.exact.includes(text));
  if (exact.length === 1) return { kind: 'found', item: exact[0].item };
  if (exact.length > 1) return { kind: 'ambiguous', items: exact.map((t) => t.item) };
  const fuse = new Fuse(things, { keys: ['fuzzy'], includeScore: true, useTokenSearch: true, tokenMatch: 'any', threshold: 0.4 });
  const results = fuse.search(text.slice(0, FUZZY_PHRASE_CHARS)).filter((r) => (r.score ?? 1) <= MAX_SCORE);
  if (results.length === 0) return { kind: 'none' };
  const best = results[0].score ?? 0;
  const close = results.filter((r) => (r.score ?? 1) - best <= TIE);
  return close.length === 1 ? { kind: 'found', item: close[0].item.item } : { kind: 'ambiguous', items: close.map((r) => r.item.item) };
}
