// The commerce node types (one module each), registered in the catalogue next to the generic ones.
import type { NodeTypeDef } from '../engine/node-type.js';

export const commerceNodeTypes: readonly NodeTypeDef[] = [];
