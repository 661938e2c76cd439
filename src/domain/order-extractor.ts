// The optional language-model port of the extract-order node; off unless a deployment provides one.
import type { ParsedLine } from './order-text-parser.js';

/** Turns document text into lines; implementations must return only what the text states. */
export interface OrderExtractor {
  /** A short name recorded in the node output (e.g. the provider and model). */
  readonly name: string;
  extract(text: string, hints: { knownSkus: readonly string[]; currency: string }): Promise<ParsedLine[]>;
}
