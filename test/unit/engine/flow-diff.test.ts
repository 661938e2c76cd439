// Contract 14 "diff": nodes added, removed and changed by field (type, label, params.<key>), edges added and removed with
// their branch made explicit; a draft that is not a valid graph is still compared as far as it reads.
import { describe, expect, it } from 'vitest';
import { diffGraphs } from '../../../src/engine/flows/flow-diff.js';
import { testCatalogue } from './test-catalogue.js';

const v1 = {
  nodes: [
    { id: 'start', type: 'trigger.api' },
    { id: 'pay', type: 'wait.event', label: 'Payment', params: { event: 'payment.received', timeout: '3d' } },
    { id: 'review', type: 'human.approval', params: { title: 'Review' } },
    { id: 'done', type: 'end', params: { outcome: 'completed' } },
  ],
  edges: [
    { from: 'start', to: 'pay' },
    { from: 'pay', to: 'review', branch: 'received' },
    { from: 'review', to: 'done', branch: 'approved' },
  ],
};

describe('diffGraphs', () => {
  it('names added, removed and changed nodes (type, label, each top-level param key) and added and removed edges', () => {
    const v2 = {
      nodes: [
        { id: 'start', type: 'trigger.webhook' },
        { id: 'pay', type: 'wait.event', label: 'Payment in', params: { event: 'payment.received', timeout: '5d', extra: 1 } },
        { id: 'ship', type: 'test.step' },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'pay' },
        { from: 'pay', to: 'ship', branch: 'received' },
        { from: 'ship', to: 'done' },
      ],
    };
    expect(diffGraphs(v1, v2, testCatalogue)).toEqual({
      nodes: {
        added: ['ship'],
        removed: ['review'],
        changed: [
          { id: 'start', fields: ['type'] },
          { id: 'pay', fields: ['label', 'params.extra', 'params.timeout'] },
        ],
      },
      edges: {
        added: [
          { from: 'pay', to: 'ship', branch: 'received' },
          { from: 'ship', to: 'done', branch: 'ok' },
        ],
        removed: [
          { from: 'pay', to: 'review', branch: 'received' },
          { from: 'review', to: 'done', branch: 'approved' },
        ],
      },
    });
  });

  it('an edge written with and without its default branch is the same edge; the same graph has no changes', () => {
    const explicit = { ...v1, edges: v1.edges.map((e) => (e.from === 'start' ? { ...e, branch: 'ok' } : e)) };
    expect(diffGraphs(v1, explicit, testCatalogue)).toEqual({ nodes: { added: [], removed: [], changed: [] }, edges: { added: [], removed: [] } });
  });

  it('reads what it can of a draft that is not a graph (nothing of it: every node removed)', () => {
    const diff = diffGraphs(v1, { nodes: 'oops' }, testCatalogue);
    expect(diff.nodes.removed).toEqual(['start', 'pay', 'review', 'done']);
    expect(diff.edges.removed).toHaveLength(3);
  });
});
