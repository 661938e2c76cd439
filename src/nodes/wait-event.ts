// Node type `wait.event`: waits for a named business event or a timeout (spec "Wait-for-event node").
import { z } from 'zod';
import { durationSchema, parseDuration } from '../platform/duration.js';
import type { NodeTypeDef, StepResult, WaitResolution, WaitSpec } from '../engine/node-type.js';

/** The vars key a delivered event is stored under: every run of non-alphanumerics becomes `_`. */
export function eventVarName(event: string): string {
  return event.replace(/[^A-Za-z0-9]+/g, '_');
}

export const waitEventParams = z.strictObject({
  event: z.string().min(1).max(100).default('payment.received'),
  timeout: durationSchema.default('30d'),
});

export type WaitEventParams = z.infer<typeof waitEventParams>;

export const waitEvent: NodeTypeDef<WaitEventParams> = {
  type: 'wait.event',
  kind: 'wait',
  label: 'Wait for event',
  description: 'Pauses the run until the named event is delivered to the order, or the timeout passes.',
  params: waitEventParams,
  branches: () => ['received', 'timeout'],
  defaultBranch: null,
  outputs: 'received: the payload plus `event` and `at` (epoch ms); timeout: { event, timedOut: true, at }.',
  vars: 'received: vars.<event name with non-alphanumeric runs replaced by _> = the payload plus `event` and `at`.',
  wait(ctx): WaitSpec {
    const { event, timeout } = ctx.params;
    return { kind: 'event', event, title: `Waiting for ${event}`, timeoutMs: parseDuration(timeout), timeoutBranch: 'timeout' };
  },
  resolveWait(params, resolution: WaitResolution): StepResult {
    if (resolution.kind === 'event') {
      if (resolution.event !== params.event) {
        throw new Error(`wait.event for "${params.event}" was resolved with event "${resolution.event}"`);
      }
      // `event` and `at` are written last so a payload cannot forge them.
      const delivered = { ...resolution.payload, event: resolution.event, at: resolution.at };
      return {
        branch: 'received',
        output: delivered,
        vars: { [eventVarName(resolution.event)]: delivered },
        summary: `Received ${resolution.event}`,
      };
    }
    if (resolution.kind === 'timeout') {
      return {
        branch: 'timeout',
        output: { event: params.event, timedOut: true, at: resolution.at },
        summary: `Timed out waiting for ${params.event}`,
      };
    }
    throw new Error(`wait.event cannot be resolved by a ${resolution.kind} resolution`);
  },
};
