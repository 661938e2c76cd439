// Node type `wait.delay`: pauses the run for a fixed duration (a durable timer), then continues on `next`.
import { z } from 'zod';
import { durationSchema, isDuration, parseDuration } from '../platform/duration.js';
import type { NodeTypeDef, StepResult, WaitResolution, WaitSpec } from '../engine/node-type.js';
import { readPath } from '../engine/template.js';

export const waitDelayParams = z.strictObject({
  duration: durationSchema,
  /**
   * Optional run-variable path (e.g. "vars.returnWindow.ms") read when the wait opens: a duration
   * string or a number of milliseconds there wins over `duration`, which stays the fallback.
   * Lets an earlier step compute the delay (a workspace return window, a subscription period).
   */
  durationFrom: z.string().regex(/^vars(\.[A-Za-z0-9_-]+)+$/, 'Expected a path like "vars.returnWindow.ms"').optional(),
});

export type WaitDelayParams = z.infer<typeof waitDelayParams>;

/** Longest delay a variable may ask for (one year), so a bad value cannot park a run for ever. */
const MAX_DELAY_FROM_VARS_MS = 366 * 86_400_000;

/** The delay in ms: the value at `durationFrom` when it is usable, else `duration`. */
export function delayMs(params: WaitDelayParams, vars: Record<string, unknown>): number {
  if (params.durationFrom) {
    const value = readPath({ vars }, params.durationFrom);
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.min(Math.round(value), MAX_DELAY_FROM_VARS_MS);
    if (typeof value === 'string' && isDuration(value)) return Math.min(parseDuration(value), MAX_DELAY_FROM_VARS_MS);
  }
  return parseDuration(params.duration);
}

/** `14d`, `90m`, `45s` or `1500ms` for the wait title. */
function durationText(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const)
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

export const waitDelay: NodeTypeDef<WaitDelayParams> = {
  type: 'wait.delay',
  kind: 'wait',
  label: 'Delay',
  description:
    'Waits for a fixed duration (e.g. a return window or a subscription period), then continues. With durationFrom ' +
    'the delay is read from a run variable when the wait opens, `duration` being the fallback.',
  params: waitDelayParams,
  branches: () => ['next'],
  defaultBranch: 'next',
  outputs: '{ duration, durationFrom?, at } where at is when the delay elapsed (epoch ms).',
  wait(ctx): WaitSpec {
    const ms = delayMs(ctx.params, ctx.vars);
    // The delay is the wait's timer; when it fires the run takes `next`.
    return { kind: 'delay', title: `Waiting ${durationText(ms)}`, timeoutMs: ms, timeoutBranch: 'next' };
  },
  resolveWait(params, resolution: WaitResolution): StepResult {
    if (resolution.kind === 'elapsed' || resolution.kind === 'timeout') {
      if (params.durationFrom)
        return { branch: 'next', output: { duration: params.duration, durationFrom: params.durationFrom, at: resolution.at }, summary: `Waited (${params.durationFrom})` };
      return { branch: 'next', output: { duration: params.duration, at: resolution.at }, summary: `Waited ${params.duration}` };
    }
    throw new Error(`wait.delay cannot be resolved by a ${resolution.kind} resolution`);
  },
};
