// Plain-text clean-up shared by the grammar and the matchers: lower case, no articles or filler, words joined by one space.

/** Words that never tell steps apart ("the", "step"), dropped before matching. */
const FILLER = new Set(['the', 'a', 'an', 'step', 'node', 'stage', 'one', 'our', 'this', 'that', 'its']);

/** `"The Fraud-Review step's"` -> `"fraud review"`. */
export function cleanPhrase(phrase: string): string {
  return phrase
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w.length > 0 && !FILLER.has(w))
    .join(' ');
}

/** `"maxPasses"` or `"max_passes"` -> `"max passes"`: how ids, types and param keys read as words. */
export function wordsOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
