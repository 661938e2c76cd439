// The heat view's colour classes and range (contract 17): classes by p95 on a log scale with a legend in words, nodes without runs apart, ranges from the page's query.
import { describe, expect, it } from 'vitest';
import { heatOf, heatRange, type FlowStatsView } from '../../../src/web/dashboard/flow-heat.js';

const node = (p95: number | null, activeNow = 0) => ({ runs: p95 === null ? 0 : 1, succeeded: p95 === null ? 0 : 1, failed: 0, activeNow, durationMs: { p50: p95, p95, max: p95 } });
const stats = (nodes: Record<string, ReturnType<typeof node>>): FlowStatsView => ({
  flowId: 'f',
  version: 1,
  from: 0,
  to: 0,
  orders: { queued: 0, running: 0, waiting: 0, completed: 0, declined: 0, cancelled: 0, failed: 0, rolled_back: 0 },
  nodes,
  edges: [{ from: 'a', to: 'b', branch: 'ok', count: 7 }],
});

describe('heat classes', () => {
  it('the fastest node is class 0, the slowest class 4, on a log scale; a node without finished runs has none', () => {
    const { heat, legend } = heatOf(stats({ a: node(1), b: node(100), c: node(10_000), d: node(86_400_000, 3), e: node(null) }));
    expect(Object.fromEntries(Object.entries(heat.nodes).map(([id, h]) => [id, h.level]))).toEqual({ a: 0, b: 1, c: 2, d: 4, e: null });
    expect(heat.nodes.d).toEqual({ p95: 86_400_000, activeNow: 3, level: 4 });
    expect(heat.edges).toEqual({ 'a>b>ok': 7 });
    expect(legend.map((l) => l.level)).toEqual([0, 1, 2, 3, 4]);
    expect(legend[0].from).toBe(1);
    expect(legend[4].to).toBe(86_400_000);
    for (let i = 1; i < legend.length; i++) expect(legend[i].from).toBe(legend[i - 1].to);
  });

  it('one p95 for every node: one class; none at all: no legend entries', () => {
    expect(heatOf(stats({ a: node(50), b: node(50) })).legend).toEqual([{ level: 2, from: 50, to: 50 }]);
    expect(heatOf(stats({ a: node(null) })).legend).toEqual([]);
  });
});

describe('heat range', () => {
  const now = Date.UTC(2026, 0, 7, 10, 30);
  it('presets end now (default the last 7 days); custom days are UTC days, both included; anything else is the default', () => {
    expect(heatRange({}, now)).toMatchObject({ preset: '7d', from: now - 7 * 86_400_000, to: now });
    expect(heatRange({ range: '24h' }, now)).toMatchObject({ from: now - 86_400_000, to: now });
    expect(heatRange({ range: 'custom', from: '2026-01-01', to: '2026-01-03' }, now)).toMatchObject({ from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 4) - 1, fromDay: '2026-01-01', toDay: '2026-01-03' });
    expect(heatRange({ range: 'custom', from: 'nope', to: '2026-01-03' }, now).preset).toBe('7d');
    expect(heatRange({ range: '1y' }, now).preset).toBe('7d');
  });
});
