// Every node type the service ships, generic first, then commerce: what the composition root hands the engine.
import type { NodeTypeDef } from '../engine/node-type.js';
import { genericNodeTypes } from './generic-node-types.js';
import { commerceNodeTypes } from './commerce-node-types.js';

/** The built-in node types in registration order (the engine's catalogue adds a deployment's or a test's after them). */
export const builtinNodeTypes: readonly NodeTypeDef[] = Object.freeze([...genericNodeTypes, ...commerceNodeTypes]);
