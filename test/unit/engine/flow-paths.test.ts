// Contract 14 "paths": every way an order can go through a flow, from its compiled machine: ends at End or logic.continue,
// a loop followed back once, unreachable nodes listed, and at most 500 paths (truncated) within the budget on a 500-node draft.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { compileFlow } from '../../../src/engine/compiler.js';
import { flowPaths } from '../../../src/engine/flows/flow-paths.js';
import type { Graph } from '../../../src/engine/graph.js';
import { builtinNodeTypes } from '../../../src/nodes/builtin-node-types.js';
import { testCatalogue } from './test-catalogue.js';

const builtin = createCatalogue(builtinNodeTypes);
const machines = readdirSync('machines').filter((f) => f.endsWith('.json'));

describe('paths of the built-in flows (machines/*.json)', () => {
  it.each(machines)('%s: every path runs from the trigger to an End or logic.continue node, and no node is unreachable', (file) => {
    const spec = JSON.parse(readFileSync(`machines/${file}`, 'utf8')) as { id: string; graph: Graph };
    const flow = compileFlow(`${spec.id}@1`, spec.graph, builtin);
    const { paths, unreachable, truncated } = flowPaths(flow);
    expect(truncated).toBe(false);
    expect(unreachable).toEqual([]);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      expect(p.nodes[0]).toBe(flow.triggerId);
      expect(p.end).toBe(p.nodes.at(-1));
      expect(['end', 'continue']).toContain(flow.nodes.get(p.end)?.def.kind);
      expect(p.branches).toHaveLength(p.nodes.length - 1);
      // Each step of a path is an edge of the graph with the branch named.
      p.branches.forEach((branch, i) => expect(flow.edges).toContainEqual({ from: p.nodes[i], to: p.nodes[i + 1], branch }));
    }
    // Every node of the flow is on some path.
    expect(new Set(paths.flatMap((p) => p.nodes))).toEqual(new Set(flow.nodes.keys()));
  });

  it('the marketplace flow follows each edge back into its acceptance loop once, and lists the seller-answer and timeout ways to each end', () => {
    const spec = JSON.parse(readFileSync('machines/tpl-marketplace-order.json', 'utf8')) as { graph: Graph };
    const { paths } = flowPaths(compileFlow('tpl-marketplace-order@1', spec.graph, builtin));
    const ends = new Set(paths.map((p) => p.end));
    expect(ends).toEqual(new Set(spec.graph.nodes.filter((node) => node.type === 'end').map((node) => node.id)));
    const loopVisits = (p: { nodes: string[] }) => p.nodes.filter((id) => id === 'acceptance_loop').length;
    // Two edges lead back into the loop (an answer leaving sellers pending, a timeout leaving them pending): each is followed once.
    expect(Math.max(...paths.map(loopVisits))).toBe(3);
    expect(paths.every((p) => loopVisits(p) <= 3)).toBe(true);
    expect(paths).toContainEqual(expect.objectContaining({ end: 'completed', branches: expect.arrayContaining(['awaiting', 'pending', 'accepted']) }));
  });
});

describe('flowPaths on drawn graphs', () => {
  const n = (id: string, type: string, params?: Record<string, unknown>) => ({ id, type, ...(params ? { params } : {}) });

  it('a loop is followed back at most once per edge: a 2-pass loop gives the way out at once and after one pass', () => {
    const graph = {
      nodes: [n('start', 'trigger.api'), n('loop', 'logic.loop', { maxPasses: 5 }), n('step', 'test.step'), n('done', 'end', { outcome: 'completed' }), n('gave_up', 'end', { outcome: 'failed' })],
      edges: [
        { from: 'start', to: 'loop' },
        { from: 'loop', to: 'step', branch: 'next' },
        { from: 'loop', to: 'gave_up', branch: 'exhausted' },
        { from: 'step', to: 'loop', branch: 'failed' },
        { from: 'step', to: 'done' },
      ],
    };
    const { paths, unreachable, truncated } = flowPaths(compileFlow('loop@1', graph, testCatalogue));
    expect(truncated).toBe(false);
    expect(unreachable).toEqual([]);
    expect(paths.map((p) => p.nodes.join(' '))).toEqual([
      'start loop step loop step done',
      'start loop step loop gave_up',
      'start loop step done',
      'start loop gave_up',
    ]);
    expect(paths[0].branches).toEqual(['ok', 'next', 'failed', 'next', 'ok']);
  });

  it('nodes from which no End can be reached are unreachable (a loop whose way out leads back in)', () => {
    const graph = {
      nodes: [n('start', 'trigger.api'), n('branch', 'logic.branch', { when: { path: 'order.total', op: 'gt', value: 0 } }), n('loop', 'logic.loop', { maxPasses: 2 }), n('spin', 'test.step'), n('done', 'end', { outcome: 'completed' })],
      edges: [
        { from: 'start', to: 'branch' },
        { from: 'branch', to: 'done', branch: 'true' },
        { from: 'branch', to: 'loop', branch: 'false' },
        { from: 'loop', to: 'spin', branch: 'next' },
        { from: 'loop', to: 'spin', branch: 'exhausted' },
        { from: 'spin', to: 'loop' },
      ],
    };
    const { paths, unreachable } = flowPaths(compileFlow('trap@1', graph, testCatalogue));
    expect(paths.map((p) => p.nodes.join(' '))).toEqual(['start branch done']);
    expect(unreachable.sort()).toEqual(['loop', 'spin']);
  });

  it('a 500-node draft of 2^249 ways stops at 500 paths, truncated, well within the 2 s budget', () => {
    // start, then 249 branches b0..b248: `true` runs step s<i>, `false` skips it; both lead to the next branch (or the End).
    const nodes = [n('start', 'trigger.api')];
    const edges: { from: string; to: string; branch?: string }[] = [{ from: 'start', to: 'b0' }];
    for (let i = 0; i < 249; i++) {
      const next = i < 248 ? `b${i + 1}` : 'done';
      nodes.push(n(`b${i}`, 'logic.branch', { when: { path: 'order.total', op: 'gt', value: i } }), n(`s${i}`, 'test.step'));
      edges.push({ from: `b${i}`, to: `s${i}`, branch: 'true' }, { from: `b${i}`, to: next, branch: 'false' }, { from: `s${i}`, to: next });
    }
    nodes.push(n('done', 'end', { outcome: 'completed' }));
    const graph = { nodes, edges };
    expect(graph.nodes).toHaveLength(500);
    const flow = compileFlow('wide@1', graph, testCatalogue);
    const began = performance.now();
    const { paths, truncated, unreachable } = flowPaths(flow);
    const ms = performance.now() - began;
    expect(truncated).toBe(true);
    expect(paths).toHaveLength(500);
    expect(unreachable).toEqual([]);
    expect(ms).toBeLessThan(2_000);
  });
});
