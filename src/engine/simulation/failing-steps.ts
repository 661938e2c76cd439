// failSteps (contract 14): the named steps fail at once, as if their retries were exhausted, under the same run rules.
import type { CompiledFlow, CompiledNode } from '../compiler.js';
import type { NodeTypeDef } from '../node-type.js';
import { RetryableError } from '../../domain/errors.js';

/** Why a failSteps node failed (its error and timeline text). */
export function simulatedFailure(label: string): string {
  return `${label} failed in the simulation (failSteps), as if its retries were exhausted`;
}

/**
 * The flow with each of `nodeIds` standing for a step whose every attempt failed: its body throws
 * a retryable error on its first attempt and its retry policy has that one attempt only, so decide
 * applies exactly the rule of a step whose retries ran out (the failure branch when wired, else
 * rollback and `rolled_back`). The machine, the other nodes and every rule stay as they are: no
 * timer waits for a backoff that would only repeat the failure. Only steps (a run body) may fail.
 */
export function withFailingSteps(flow: CompiledFlow, nodeIds: readonly string[]): CompiledFlow {
  if (nodeIds.length === 0) return flow;
  const nodes = new Map<string, CompiledNode>(flow.nodes);
  for (const id of nodeIds) {
    const compiled = nodes.get(id);
    if (!compiled) throw new Error(`failSteps: ${id} is not a node of ${flow.flowKey}`);
    const label = compiled.node.label ?? id;
    const failing: NodeTypeDef = {
      ...compiled.def,
      retry: { attempts: 1, backoffMs: 0, factor: 1 },
      retryPolicy: undefined,
      run: () => {
        throw new RetryableError(simulatedFailure(label), undefined, 'simulated_failure');
      },
    };
    nodes.set(id, { ...compiled, def: failing });
  }
  return { ...flow, nodes };
}

/** Whether a node may be named in failSteps: a step with a body (triggers, waits, logic and ends are not steps). */
export function canFail(compiled: CompiledNode): boolean {
  return compiled.def.kind === 'step' && typeof compiled.def.run === 'function';
}
