// The `orderExtractor` port as the service builds it: no language model is configured, so every step uses its parser.
//
// A deployment (or a test) that has a model supplies its own port: StartOptions.engine.ports
// (src/server/service-context.ts) adds or replaces ports over each slice's store.
import type { OrderExtractorPort } from '../ports/order-extractor-port.js';

/** The port without a model: `extract` answers null. */
export const noOrderExtractor: OrderExtractorPort = {
  extract: () => Promise.resolve(null),
};
