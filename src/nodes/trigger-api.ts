// Node type `trigger.api`: the start of a flow for orders started through the API, dashboard or an agent.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { channelLabel } from './trigger-webhook.js';

export type TriggerApiParams = Record<string, never>;

export const triggerApi: NodeTypeDef<TriggerApiParams> = {
  type: 'trigger.api',
  kind: 'trigger',
  label: 'API trigger',
  description: 'Starts the flow for an order started through the REST API, the dashboard, A2A or MCP.',
  params: z.strictObject({}),
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ channel, externalId }',
  run(ctx): StepResult {
    const { channel, externalId } = ctx.order;
    const summary = externalId ? `${channelLabel(channel)} · ${externalId}` : `${channelLabel(channel)} order`;
    return { branch: 'ok', output: { channel, externalId }, summary };
  },
};
