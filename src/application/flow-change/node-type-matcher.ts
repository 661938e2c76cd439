// Which node type a phrase asks to add ("an approval", "a fraud check", "a notification"): the catalogue's labels and aliases, fuzzily.
import type { Catalogue } from '../../engine/catalogue.js';
import type { NodeTypeDef } from '../../engine/node-type.js';
import { fuzzyPick, type Pick } from './fuzzy-pick.js';
import { typeNames } from './node-type-aliases.js';

/** The catalogue type a phrase names: an exact label, type name or alias first, then the closest by fuse.js. */
export function matchNodeType(phrase: string, catalogue: Catalogue): Pick<NodeTypeDef> {
  const things = catalogue.list().map((def) => ({ item: def, names: typeNames(def.type, catalogue) }));
  const exact = fuzzyPick(phrase, things.map((t) => ({ item: t.item, exact: t.names, fuzzy: [] })));
  // A type name shared by several types (none today) would be ambiguous; the first registered wins only on a clean hit.
  if (exact.kind !== 'none') return exact.kind === 'ambiguous' ? { kind: 'found', item: exact.items[0] } : exact;
  return fuzzyPick(phrase, things.map((t) => ({ item: t.item, exact: [], fuzzy: t.names })));
}
