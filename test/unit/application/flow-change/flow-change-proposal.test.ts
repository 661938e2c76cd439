// Rule: each kind of instruction edits a copy of the draft as its summary says, the result is validated, and the draft is untouched.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../../src/nodes/commerce-node-types.js';
import { proposeFlowChange } from '../../../../src/application/flow-change/flow-change-proposal.js';

const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
const draft = (flow: string) => JSON.parse(fs.readFileSync(`machines/${flow}.json`, 'utf8')).graph;
const edges = (g: { edges: { from: string; to: string; branch?: string }[] }) => g.edges.map((e) => `${e.from}>${e.to}${e.branch ? `:${e.branch}` : ''}`);

describe('proposeFlowChange', () => {
  it('insert before: what led to the step leads to the new one, which continues to it and ends its other branches', () => {
    const before = draft('tpl-storefront-order');
    const copy = structuredClone(before);
    const { graph, problems, summary } = proposeFlowChange(before, 'add an approval before capture', catalogue);
    expect(before).toEqual(copy);
    expect(problems).toEqual([]);
    expect(edges(graph)).toEqual(expect.arrayContaining(['ship>approval', 'approval>capture:approved', 'approval>approval_rejected:rejected', 'approval>approval_escalated:escalated']));
    expect(edges(graph)).not.toContain('ship>capture');
    expect(summary).toMatch(/Added "Approval" \(approval\).*before "Capture payment" \(capture\).*Nothing was saved/);
  });

  it('insert on a branch: the new step sits between the branch and where it led', () => {
    const { graph, problems } = proposeFlowChange(draft('tpl-marketplace-order'), 'notify sellers on rejection', catalogue);
    expect(problems).toEqual([]);
    expect(edges(graph)).toEqual(expect.arrayContaining(['trust_review>notify_sellers_2:rejected', 'notify_sellers_2>declined']));
    expect(graph.nodes.find((n) => n.id === 'notify_sellers_2')).toMatchObject({ type: 'commerce.notify', params: { to: 'seller' } });
  });

  it('remove: reconnects around the step and removes what only it reached', () => {
    const { graph, problems, summary } = proposeFlowChange(draft('tpl-storefront-order'), 'remove the fraud review', catalogue);
    expect(problems).toEqual([]);
    expect(edges(graph)).toContain('fraud>po_box:high');
    expect(graph.nodes.map((n) => n.id)).not.toEqual(expect.arrayContaining(['fraud_review', 'declined_fraud', 'review_timed_out']));
    expect(summary).toMatch(/No longer reachable, so removed too: .*declined_fraud/);
  });

  it('reconnect: to a new End for an outcome the flow lacks, or to the one End with that outcome', () => {
    const cancelled = proposeFlowChange(draft('tpl-storefront-order'), 'send rejected orders to cancel', catalogue);
    expect(cancelled.problems).toEqual([]);
    expect(cancelled.graph.nodes.find((n) => n.id === 'cancelled')).toMatchObject({ type: 'end', params: { outcome: 'cancelled' } });
    expect(edges(cancelled.graph)).toContain('fraud_review>cancelled:rejected');
    const failed = proposeFlowChange(draft('tpl-purchase-request'), 'send rejected orders to failed', catalogue);
    expect(edges(failed.graph)).toContain('approval>not_received:rejected');
  });

  it('params: durations in words, numbers and choices as the schema wants them', () => {
    const wait = proposeFlowChange(draft('tpl-marketplace-order'), 'wait 3 days for sellers', catalogue);
    expect(wait.graph.nodes.find((n) => n.id === 'wait_sellers')?.params).toMatchObject({ timeout: '3d' });
    expect(wait.summary).toMatch(/Set timeout of "Wait for sellers" \(wait_sellers\) to "3d" \(was "2d"\)/);
    const loop = proposeFlowChange(draft('tpl-marketplace-order'), 'set the acceptance loop max passes to 5', catalogue);
    expect(loop.graph.nodes.find((n) => n.id === 'acceptance_loop')?.params).toEqual({ maxPasses: 5 });
    const audience = proposeFlowChange(draft('tpl-storefront-order'), 'set the audience of confirm to operations', catalogue);
    expect(audience.graph.nodes.find((n) => n.id === 'confirm')?.params).toMatchObject({ to: 'operations' });
  });

  it('a change the words leave incomplete comes back with the problems that say why', () => {
    const { problems, summary } = proposeFlowChange(draft('tpl-storefront-order'), 'add a delay after ship', catalogue);
    expect(problems).toEqual([expect.objectContaining({ nodeId: 'delay', message: expect.stringContaining('duration') })]);
    expect(summary).toMatch(/1 validation problem/);
  });

  it('refuses, changing nothing, what it cannot read or apply, saying what it understands', () => {
    const attempt = (flow: string, text: string) => () => proposeFlowChange(draft(flow), text, catalogue);
    expect(attempt('tpl-storefront-order', 'make coffee')).toThrow(/It understands: insert .*remove .*reconnect .*change a param/);
    expect(attempt('tpl-storefront-order', 'remove the banana')).toThrow(/no step of this flow matches "the banana"/);
    expect(attempt('tpl-storefront-order', 'remove the trigger')).toThrow(/trigger/);
    expect(attempt('tpl-marketplace-order', 'remove sellers')).toThrow(/could mean/);
    expect(attempt('tpl-marketplace-order', 'send failed orders to cancel')).toThrow(/all have a failed branch; say which/);
    expect(attempt('tpl-storefront-order', 'make the fraud review timeout 2 days')).toThrow(/already "2d"/);
  });
});
