// What every step may set besides its type's own params: `onFailure` (contract 16), added to each step type by the catalogue.
import { z } from 'zod';
import type { NodeTypeDef } from './node-type.js';

/** `rollback` (the run-outcome rules of contract section 5) or `hold` (nothing undone; an operator retries or rolls back). */
export const ON_FAILURE = ['rollback', 'hold'] as const;
export type OnFailure = (typeof ON_FAILURE)[number];

export const onFailureSchema = z
  .enum(ON_FAILURE)
  .default('rollback')
  .describe('What a failure with no failure branch wired does: `rollback` undoes the completed steps; `hold` parks the order for a retry or a rollback (contract 16)');

/**
 * The step type with `onFailure` among its params, so the validator, the compiler, the editor's
 * catalogue and the docs all read it from the one schema. A type whose params are not an object
 * schema is left as it is (it cannot take a key of its own beside them).
 */
export function withStepPolicy<P>(def: NodeTypeDef<P>): NodeTypeDef<P> {
  if (def.kind !== 'step' || !(def.params instanceof z.ZodObject) || 'onFailure' in def.params.shape) return def;
  return { ...def, params: def.params.safeExtend({ onFailure: onFailureSchema }) as unknown as z.ZodType<P> };
}

/** The node's `onFailure` from its parsed params (`rollback` for a node that has none). */
export function onFailureOf(params: unknown): OnFailure {
  return (params as { onFailure?: unknown } | null)?.onFailure === 'hold' ? 'hold' : 'rollback';
}
