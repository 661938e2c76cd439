// Rule: a step phrase names a node by exact id or label, then by its type, then fuzzily; several equal matches are ambiguous.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../../src/nodes/commerce-node-types.js';
import { matchStep } from '../../../../src/application/flow-change/step-matcher.js';
import { matchNodeType } from '../../../../src/application/flow-change/node-type-matcher.js';
import type { DraftNode } from '../../../../src/application/flow-change/draft-graph.js';

const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
const nodes = (flow: string): DraftNode[] => JSON.parse(fs.readFileSync(`machines/${flow}.json`, 'utf8')).graph.nodes;
const picked = (phrase: string, flow: string) => {
  const pick = matchStep(phrase, nodes(flow), catalogue);
  return pick.kind === 'found' ? pick.item.id : pick.kind === 'ambiguous' ? pick.items.map((n) => n.id) : null;
};

describe('matchStep', () => {
  it.each([
    ['capture', 'tpl-storefront-order', 'capture'],
    ['Capture payment', 'tpl-storefront-order', 'capture'],
    ['the fraud check', 'tpl-storefront-order', 'fraud'],
    ['pricing', 'tpl-storefront-order', 'price'],
    ['reserv stok', 'tpl-storefront-order', 'reserve'],
    ['approval', 'tpl-b2b-order', 'sales_approval'],
    ['the delay', 'tpl-subscription', 'wait_period'],
    ['wait for sellers', 'tpl-marketplace-order', 'wait_sellers'],
  ])('"%s" in %s is %s', (phrase, flow, id) => {
    expect(picked(phrase, flow)).toBe(id);
  });

  it('several equally good matches are ambiguous; no close match is none', () => {
    expect(picked('sellers', 'tpl-marketplace-order')).toEqual(expect.arrayContaining(['notify_sellers', 'wait_sellers', 'expire_sellers']));
    expect(picked('banana', 'tpl-storefront-order')).toBeNull();
  });
});

describe('matchNodeType', () => {
  it.each([
    ['an approval', 'human.approval'], ['fraud check', 'commerce.fraud_score'], ['notification', 'commerce.notify'],
    ['notify', 'commerce.notify'], ['delay', 'wait.delay'], ['Refund', 'commerce.refund'], ['invoce', 'commerce.invoice'],
  ])('"%s" is %s', (phrase, type) => {
    const pick = matchNodeType(phrase, catalogue);
    expect(pick.kind === 'found' && pick.item.type).toBe(type);
  });
});
