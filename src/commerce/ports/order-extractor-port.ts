// Port `orderExtractor`: a language model that reads a document into order lines, when the deployment configures one.
import type { ParsedLine } from '../../domain/order-text-parser.js';

export interface OrderExtractorPort {
  /**
   * The lines the model reads in `text` (only what the text states) and the model's name, e.g. its
   * provider and model (recorded as the step's method); null when no model is configured (the step
   * then uses its deterministic parser). Writes nothing.
   */
  extract(text: string, hints: { knownSkus: readonly string[]; currency: string }): Promise<{ model: string; lines: ParsedLine[] } | null>;
}
