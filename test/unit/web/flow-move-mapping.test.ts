// The Move form's mapping rows (contract 15): a node maps by id to a node of the same id and type (a wait for the same event); every other node gets a row offering the target's nodes of its type.
import { describe, expect, it } from 'vitest';
import { mappingRows, moveNodes } from '../../../src/web/dashboard/flow-move-mapping.js';

const graph = (...nodes: { id: string; type: string; label?: string; params?: Record<string, unknown> }[]) => ({ nodes, edges: [] });

const v1 = graph(
  { id: 'start', type: 'trigger.api' },
  { id: 'ok', type: 'human.approval', label: 'Manager approval' },
  { id: 'pay', type: 'wait.event', params: { event: 'payment.received' } },
  { id: 'call', type: 'http.call' },
  { id: 'done', type: 'end' },
);

describe('mapping rows of a move', () => {
  it('nodes with the same id and type in the target need no row', () => {
    expect(mappingRows(v1, v1)).toEqual([]);
  });

  it('a renamed node gets a row offering the target nodes of its type only', () => {
    const v2 = graph({ id: 'start', type: 'trigger.api' }, { id: 'approve', type: 'human.approval' }, { id: 'legal', type: 'human.approval' }, { id: 'pay', type: 'wait.event', params: { event: 'payment.received' } }, { id: 'call', type: 'http.call' }, { id: 'done', type: 'end' });
    const rows = mappingRows(v1, v2);
    expect(rows.map((r) => [r.node.id, r.why, r.options.map((o) => o.id)])).toEqual([['ok', 'missing', ['approve', 'legal']]]);
    expect(rows[0].node.label).toBe('Manager approval');
  });

  it('the same id with another type, or a wait for another event, does not map by id', () => {
    const v2 = graph({ id: 'start', type: 'trigger.api' }, { id: 'ok', type: 'wait.delay' }, { id: 'pay', type: 'wait.event', params: { event: 'payment.settled' } }, { id: 'call', type: 'http.call' }, { id: 'done', type: 'end' });
    const rows = mappingRows(v1, v2);
    expect(rows.map((r) => [r.node.id, r.why, r.options.map((o) => o.id)])).toEqual([
      ['ok', 'other-type', []],
      ['pay', 'other-event', ['pay']],
    ]);
  });

  it("a wait.event without an event param waits for the type's default, payment.received", () => {
    expect(moveNodes(graph({ id: 'w', type: 'wait.event' }))[0].event).toBe('payment.received');
    expect(mappingRows(graph({ id: 'w', type: 'wait.event' }), graph({ id: 'w', type: 'wait.event', params: { event: 'payment.received' } }))).toEqual([]);
  });

  it('nodes of a final type (End, continue-as-new) get no row: an order that reached one has ended', () => {
    const v2 = graph({ id: 'start', type: 'trigger.api' }, { id: 'ok', type: 'human.approval' }, { id: 'pay', type: 'wait.event', params: { event: 'payment.received' } }, { id: 'call', type: 'http.call' }, { id: 'finished', type: 'end' });
    expect(mappingRows(v1, v2).map((r) => r.node.id)).toEqual(['done']);
    expect(mappingRows(v1, v2, new Set(['end']))).toEqual([]);
  });

  it('a malformed graph has no nodes (nothing to map, nothing thrown)', () => {
    expect(moveNodes(null)).toEqual([]);
    expect(moveNodes({ nodes: [1, { id: 2 }, { id: 'x' }] })).toEqual([]);
  });
});
