// Port `orderExtractor` in a simulation: no language model is asked (that would be an outbound call), so the step uses its own parser.
import type { OrderExtractorPort } from '../ports/order-extractor-port.js';

/** Answers null: `ai.extract_order` reads the document with its deterministic parser, as it does without a model. */
export const simulatedOrderExtractorPort: OrderExtractorPort = {
  extract: () => Promise.resolve(null),
};
