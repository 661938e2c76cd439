// Performs the I/O effect decide waits for (a step body, an answer, an undo, an abandon) and reads its outcome as decide's next input.
import type { CompiledFlow } from '../compiler.js';
import { isExternalCall, type ExternalCall, type StepContext, type StepResult } from '../node-type.js';
import { isTerminalFailure } from '../../domain/errors.js';
import type { IoEffect } from './effects.js';
import type { EffectResult, StepFailure } from './run-input.js';
import type { RunState } from './run-state.js';
import { undoBody } from './undo-body.js';

/** Which body: a step's `run`, its `answer` to a call, an undo (`compensate`/`cancel`), an `abandon`. */
export type BodyPhase = 'run' | 'answer' | 'undo' | 'abandon';

/** How a body ended: its value, or what it threw (its writes already taken back). */
export type Invocation<T> = { ok: T } | { threw: unknown };

/** How a host runs one body of a node: with the ports of its world, its writes taken back when it throws. */
export type InvokeBody = <T>(nodeId: string, attempt: number, phase: BodyPhase, body: (ctx: StepContext<unknown>) => Promise<T> | T) => Promise<Invocation<T>>;

/** Why a body failed, as decide reads it: the message, whether a retry can help, and what it carried. */
export function failureOf(err: unknown): StepFailure {
  const failure: StepFailure = { message: err instanceof Error ? err.message : String(err), terminal: isTerminalFailure(err) };
  const carried = typeof err === 'object' && err !== null ? (err as { output?: unknown; retryAfterMs?: unknown }) : {};
  // An external step's failure may carry what it got back (http.call: `{ status, body, attempts }`).
  if (carried.output !== undefined) failure.output = carried.output;
  if (typeof carried.retryAfterMs === 'number') failure.retryAfterMs = carried.retryAfterMs;
  return failure;
}

/**
 * Runs the body `effect` names through `invoke` (the real run host's invoker, or a simulation's) and answers
 * with its outcome: stepDone / stepCalled / stepFailed, undone / undoFailed, abandoned / abandonFailed.
 */
export async function performEffect(flow: CompiledFlow, state: RunState, effect: IoEffect, invoke: InvokeBody): Promise<EffectResult> {
  const compiled = flow.nodes.get(effect.nodeId);
  if (!compiled) throw new Error(`node ${effect.nodeId} is not in flow ${flow.flowKey}`);
  const { def, params } = compiled;
  if (effect.type === 'runStep') {
    let body: (ctx: StepContext<unknown>) => Promise<StepResult | ExternalCall> | StepResult | ExternalCall;
    if (effect.phase === 'run') {
      const run = def.run?.bind(def);
      if (!run) throw new Error(`node type ${def.type} has no run()`);
      body = run;
    } else {
      const answer = def.answer?.bind(def);
      if (!answer) throw new Error(`node type ${def.type} made a call but has no answer()`);
      const { answer: received } = effect;
      body = (ctx) => answer(ctx, received);
    }
    const out = await invoke(effect.nodeId, effect.attempt, effect.phase, body);
    if ('threw' in out) return { type: 'stepFailed', failure: failureOf(out.threw) };
    return isExternalCall(out.ok) ? { type: 'stepCalled', request: out.ok.call } : { type: 'stepDone', result: out.ok };
  }
  const attempt = state.nodes.get(effect.nodeId)?.attempt ?? 0;
  if (effect.type === 'undo') {
    const undo = undoBody(def, params, effect.mode);
    if (!undo) throw new Error(`node type ${def.type} has nothing to undo`);
    const out = await invoke(effect.nodeId, attempt, 'undo', undo);
    if ('threw' in out) return { type: 'undoFailed', message: failureOf(out.threw).message };
    return { type: 'undone', call: isExternalCall(out.ok) ? out.ok.call : null };
  }
  const abandon = def.abandon?.bind(def);
  if (!abandon) throw new Error(`node type ${def.type} has no abandon()`);
  const out = await invoke(effect.nodeId, attempt, 'abandon', abandon);
  return 'threw' in out ? { type: 'abandonFailed', message: failureOf(out.threw).message } : { type: 'abandoned' };
}
