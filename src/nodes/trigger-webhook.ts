// Node type `trigger.webhook`: the start of a flow for orders that arrived signed from outside.
import { z } from 'zod';
import type { NodeTypeDef, OrderView, StepResult } from '../engine/node-type.js';

/** Display names of the order channels (spec: order input `channel`). */
const CHANNEL_LABELS: Readonly<Record<string, string>> = Object.freeze({
  web: 'Web',
  mobile: 'Mobile',
  pos: 'POS',
  marketplace: 'Marketplace',
  email: 'Email',
  edi: 'EDI',
  api: 'API',
  manual: 'Manual',
  schedule: 'Schedule',
});

/** The display name of a channel; an unknown channel shows as given. */
export function channelLabel(channel: string): string {
  return CHANNEL_LABELS[channel] ?? channel;
}

/** `meta.source` when it is a non-empty string, else null. */
export function orderSource(order: OrderView): string | null {
  const source = order.meta?.source;
  return typeof source === 'string' && source.length > 0 ? source : null;
}

export type TriggerWebhookParams = Record<string, never>;

export const triggerWebhook: NodeTypeDef<TriggerWebhookParams> = {
  type: 'trigger.webhook',
  kind: 'trigger',
  label: 'Webhook trigger',
  description: 'Starts the flow for an order received on a signed inbound route, adapter or EDI.',
  params: z.strictObject({}),
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ channel, externalId, source }; source is meta.source or null.',
  run(ctx): StepResult {
    const { channel, externalId } = ctx.order;
    const source = orderSource(ctx.order);
    // Spec: `<channel label> · <externalId>` plus ` (<source>)` when source differs from the channel.
    let summary = `${channelLabel(channel)} · ${externalId ?? '(no external id)'}`;
    if (source !== null && source !== channel) summary += ` (${source})`;
    return { branch: 'ok', output: { channel, externalId, source }, summary };
  },
};
