// The node catalogue: the one registry of node types the validator, compiler, runtime and docs read (the types are handed in).
import type { NodeTypeDef } from './node-type.js';
import { withStepPolicy } from './step-policy.js';

/** A read-only set of node types, looked up by type name. */
export interface Catalogue {
  /** The node type, or undefined when the catalogue has none by that name. */
  get(type: string): NodeTypeDef | undefined;
  has(type: string): boolean;
  /** Every node type, in registration order. */
  list(): readonly NodeTypeDef[];
}

/**
 * Builds a catalogue; a type name registered twice is a programming error and throws. Every step
 * type takes the engine's own step param `onFailure` beside its own (step-policy.ts).
 */
export function createCatalogue(types: readonly NodeTypeDef[]): Catalogue {
  const byType = new Map<string, NodeTypeDef>();
  for (const def of types) {
    if (byType.has(def.type)) throw new Error(`Node type "${def.type}" is registered twice`);
    byType.set(def.type, withStepPolicy(def));
  }
  const listed = Object.freeze([...byType.values()]);
  return {
    get: (type) => byType.get(type),
    has: (type) => byType.has(type),
    list: () => listed,
  };
}
