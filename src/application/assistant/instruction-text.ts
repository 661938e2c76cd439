// The flow-change instruction inside a chat question: the question without the words naming the flow, by token search.

/** Words that introduce the flow's name ("in the storefront flow", "to the marketplace flow"). */
const PREPOSITIONS = new Set(['in', 'on', 'to', 'of', 'for']);
/** A word that can be part of a flow's name (letters, digits, `_` and `-`). */
const NAME_WORD = /^[\w-]+$/;
/** "flow", "storefront-flow", "flow." or "flow?": the word that ends the flow's name. */
const FLOW_WORD = /^(?:[\w-]*-)?flow(?![\w])/i;
/** At most this many words between the preposition and "flow" ("in the marketplace order flow" has three). */
const MAX_NAME_WORDS = 6;

/**
 * "add an approval before capture in the storefront flow" -> "add an approval before capture": from the first word
 * "flow" back to the nearest preposition before it, over name words only, and everything after "flow", go. Linear
 * in the text (security review 2, M-1: the regular expression this replaces backtracked for seconds on 4,000
 * characters of spaces); the question unchanged when no flow is named that way.
 */
export function instructionOf(question: string): string {
  const words = question.split(/\s+/).filter((w) => w.length > 0);
  const flow = words.findIndex((w) => FLOW_WORD.test(w));
  if (flow > 0) {
    for (let i = flow - 1; i >= 0 && i >= flow - 1 - MAX_NAME_WORDS; i--) {
      if (PREPOSITIONS.has(words[i].toLowerCase()) && i > 0) return words.slice(0, i).join(' ');
      if (!NAME_WORD.test(words[i])) break;
    }
  }
  return words.join(' ') || question;
}
