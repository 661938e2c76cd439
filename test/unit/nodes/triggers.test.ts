// Tests for the trigger nodes `trigger.webhook` (spec signed inbound orders) and `trigger.api`.
import { describe, expect, it } from 'vitest';
import { triggerApi } from '../../../src/nodes/trigger-api.js';
import { channelLabel, triggerWebhook } from '../../../src/nodes/trigger-webhook.js';
import { stepContext, testOrder } from './step-context.js';

const runWebhook = (order = testOrder()) => triggerWebhook.run!(stepContext({}, { order })) as { branch: string; summary: string; output: unknown };

describe('triggers', () => {
  it('spec inbound orders: the webhook trigger summarises `<channel label> · <externalId>`', () => {
    expect(runWebhook(testOrder({ channel: 'web', externalId: 'A-1' }))).toEqual({
      branch: 'ok',
      summary: 'Web · A-1',
      output: { channel: 'web', externalId: 'A-1', source: null },
    });
  });

  it('spec inbound orders: ` (<source>)` is added when the source differs from the channel', () => {
    const edi = runWebhook(testOrder({ channel: 'edi', externalId: 'ACME:PO1', meta: { source: 'x12-850' } }));
    expect(edi.summary).toBe('EDI · ACME:PO1 (x12-850)');
    expect(edi.output).toEqual({ channel: 'edi', externalId: 'ACME:PO1', source: 'x12-850' });
    const same = runWebhook(testOrder({ channel: 'pos', externalId: '7', meta: { source: 'pos' } }));
    expect(same.summary).toBe('POS · 7');
  });

  it('spec order input: every channel has a label', () => {
    for (const channel of ['web', 'mobile', 'pos', 'marketplace', 'email', 'edi', 'api', 'manual', 'schedule']) {
      expect(channelLabel(channel)).not.toBe(channel);
    }
  });

  it('contract 5: the API trigger takes ok with a summary and the channel and externalId', () => {
    const result = triggerApi.run!(stepContext({}, { order: testOrder({ channel: 'api', externalId: null }) })) as { branch: string; summary: string; output: unknown };
    expect(result).toEqual({ branch: 'ok', summary: 'API order', output: { channel: 'api', externalId: null } });
  });

  it('contract 5: triggers have one branch ok, the default, and take no params', () => {
    for (const def of [triggerApi, triggerWebhook]) {
      expect(def.kind).toBe('trigger');
      expect(def.branches({})).toEqual(['ok']);
      expect(def.defaultBranch).toBe('ok');
      expect(def.params.safeParse({ x: 1 }).success).toBe(false);
    }
  });
});
