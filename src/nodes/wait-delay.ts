// Node type `wait.delay`: pauses the run for a fixed duration (a durable timer), then continues on `next`.
import { z } from 'zod';
import { durationSchema, parseDuration } from '../engine/duration.js';
import type { NodeTypeDef, StepResult, WaitResolution, WaitSpec } from '../engine/node-type.js';

export const waitDelayParams = z.strictObject({ duration: durationSchema });

export type WaitDelayParams = z.infer<typeof waitDelayParams>;

export const waitDelay: NodeTypeDef<WaitDelayParams> = {
  type: 'wait.delay',
  kind: 'wait',
  label: 'Delay',
  description: 'Waits for a fixed duration (e.g. a return window or a subscription period), then continues.',
  params: waitDelayParams,
  branches: () => ['next'],
  defaultBranch: 'next',
  outputs: '{ duration, at } where at is when the delay elapsed (epoch ms).',
  wait(ctx): WaitSpec {
    const { duration } = ctx.params;
    // The delay is the wait's timer; when it fires the run takes `next`.
    return { kind: 'delay', title: `Waiting ${duration}`, timeoutMs: parseDuration(duration), timeoutBranch: 'next' };
  },
  resolveWait(params, resolution: WaitResolution): StepResult {
    if (resolution.kind === 'elapsed' || resolution.kind === 'timeout') {
      return { branch: 'next', output: { duration: params.duration, at: resolution.at }, summary: `Waited ${params.duration}` };
    }
    throw new Error(`wait.delay cannot be resolved by a ${resolution.kind} resolution`);
  },
};
