// Which step of a flow a phrase names ("capture", "the fraud check", "wait for sellers"): by id, label, then type, fuzzily.
import type { Catalogue } from '../../engine/catalogue.js';
import type { DraftNode } from './draft-graph.js';
import { fuzzyPick, type Pick } from './fuzzy-pick.js';
import { typeNames } from './node-type-aliases.js';
import { cleanPhrase, wordsOf } from './phrase-text.js';
import { stepAmbiguous, stepNotFound } from './flow-change-refusals.js';

/**
 * The node a phrase names among `nodes`: an exact id or label first, then an exact type name (only when one node
 * has that type), then the closest id, label or type name by fuse.js token search.
 */
export function matchStep(phrase: string, nodes: readonly DraftNode[], catalogue: Catalogue): Pick<DraftNode> {
  const byName = fuzzyPick(
    phrase,
    nodes.map((n) => ({ item: n, exact: [wordsOf(n.id), cleanPhrase(n.label ?? '')].filter((s) => s.length > 0), fuzzy: [] })),
  );
  if (byName.kind !== 'none') return byName;
  const text = cleanPhrase(phrase);
  const byType = nodes.filter((n) => typeNames(n.type, catalogue).includes(text));
  if (byType.length === 1) return { kind: 'found', item: byType[0] };
  if (byType.length > 1) return { kind: 'ambiguous', items: byType };
  return fuzzyPick(
    phrase,
    nodes.map((n) => ({ item: n, exact: [], fuzzy: [wordsOf(n.id), cleanPhrase(n.label ?? ''), ...typeNames(n.type, catalogue)].filter((s) => s.length > 0) })),
  );
}

/** The node a phrase names among `nodes`, or a refusal saying none or several match. */
export function requireStep(phrase: string, nodes: readonly DraftNode[], catalogue: Catalogue, what = 'step'): DraftNode {
  const pick = matchStep(phrase, nodes, catalogue);
  if (pick.kind === 'found') return pick.item;
  throw pick.kind === 'none' ? stepNotFound(phrase, nodes, what) : stepAmbiguous(phrase, pick.items);
}
