// Which body undoes a completed step: on rollback its `compensate`; on cancel its `cancel`, else `compensate` (null: nothing).
import type { ExternalCall, NodeTypeDef, StepContext } from '../node-type.js';
import type { UndoMode } from './effects.js';

export type UndoBody = (ctx: StepContext<unknown>) => Promise<void | ExternalCall>;

/**
 * The node type's undo for `mode`, bound to its definition; undefined when the step leaves nothing
 * to undo: no such body, `cancel: null` on a cancel (money captured or charged stays), or params
 * that make nothing to undo (`undoable`, e.g. http.call without `compensate`). decide only asks
 * whether there is one; the executor calls it.
 */
export function undoBody(def: NodeTypeDef, params: unknown, mode: UndoMode): UndoBody | undefined {
  const compensate = def.compensate?.bind(def);
  const body = mode === 'cancel' ? (def.cancel === null ? undefined : (def.cancel?.bind(def) ?? compensate)) : compensate;
  if (!body || def.undoable?.(params) === false) return undefined;
  return body;
}
