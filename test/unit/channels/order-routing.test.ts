// Routing of inbound orders in the spec's four steps, workspace routes over built-in ones key by key (spec "Signed inbound orders route").
import { describe, expect, it } from 'vitest';
import { BUILTIN_ORDER_ROUTES, MODEL_DEFAULT_FLOWS, routeOrder } from '../../../src/channels/inbound/order-routing.js';
import { ORDER_MODELS } from '../../../src/domain/order-input-schema.js';

describe('routeOrder', () => {
  it('(1) the body flowId wins over every route', () => {
    expect(routeOrder({ flowId: 'mine', model: 'b2c', channel: 'pos' }, { 'b2c:pos': 'ws' })).toEqual({ flowId: 'mine', by: 'body' });
  });

  it('(2) model:channel: workspace first, else built-in', () => {
    expect(routeOrder({ model: 'b2b', channel: 'edi' }, { 'b2b:edi': 'edi-flow' })).toEqual({ flowId: 'edi-flow', by: 'channel_route' });
    expect(routeOrder({ model: 'b2c', channel: 'pos' }, {})).toEqual({ flowId: 'tpl-pos-sale', by: 'channel_route' });
    expect(routeOrder({ model: 'd2c', channel: 'pos' }, {})).toEqual({ flowId: 'tpl-pos-sale', by: 'channel_route' });
    expect(routeOrder({ model: 'd2c', channel: 'pos' }, { 'd2c:pos': 'my-pos' }).flowId).toBe('my-pos');
  });

  it('(2) before (3): a built-in b2c:pos beats a workspace b2c:*', () => {
    expect(routeOrder({ model: 'b2c', channel: 'pos' }, { 'b2c:*': 'any-b2c' }).flowId).toBe('tpl-pos-sale');
    expect(routeOrder({ model: 'b2c', channel: 'web' }, { 'b2c:*': 'any-b2c' })).toEqual({ flowId: 'any-b2c', by: 'model_route' });
  });

  it('(4) the model default for all seven models', () => {
    const expected = {
      b2b: 'tpl-b2b-order',
      b2c: 'tpl-storefront-order',
      d2c: 'tpl-omnichannel-order',
      marketplace: 'tpl-marketplace-order',
      subscription: 'tpl-subscription',
      procurement: 'tpl-purchase-request',
      replenishment: 'tpl-reorder',
    };
    expect(MODEL_DEFAULT_FLOWS).toEqual(expected);
    for (const model of ORDER_MODELS) expect(routeOrder({ model, channel: 'api' }, {})).toEqual({ flowId: expected[model], by: 'model_default' });
  });

  it('only own keys count (no prototype lookups such as constructor)', () => {
    expect(routeOrder({ model: 'b2c', channel: 'constructor' }, {}).flowId).toBe('tpl-storefront-order');
    expect(Object.keys(BUILTIN_ORDER_ROUTES).sort()).toEqual(['b2c:pos', 'd2c:pos']);
  });
});
