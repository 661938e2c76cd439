// The flow drawing: every node and edge of each built-in flow is in its SVG with its attributes; one version always draws the same.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../src/nodes/commerce-node-types.js';
import { machinesDir } from '../../../src/engine/flows/builtin-flows.js';
import { analyseGraph } from '../../../src/engine/validator.js';
import { FlowDiagrams } from '../../../src/engine/flows/flow-diagrams.js';
import { edgeKey } from '../../../src/engine/flows/flow-diagram-svg.js';
import { shapeOf } from '../../../src/engine/flows/flow-diagram-model.js';

const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
const builtins = readdirSync(machinesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(machinesDir, f), 'utf8')) as { id: string; name: string; graph: unknown });

/** Drawings for these tests: unlimited starts (the per-caller limit has its own tests), threads ended after. */
const made: FlowDiagrams[] = [];
const fresh = (): FlowDiagrams => {
  const d = new FlowDiagrams(catalogue, { startsPerCaller: { limit: Number.POSITIVE_INFINITY, windowMs: 1 } });
  made.push(d);
  return d;
};
const diagrams = fresh();
afterAll(async () => {
  await Promise.all(made.map((d) => d.close()));
});

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

describe('flow drawing of the built-in flows', () => {
  it.each(builtins.map((b) => [b.id, b] as const))('%s: every node and edge appears with its data-* attributes and shape', async (_id, flow) => {
    const svg = await diagrams.svg({ flowId: flow.id, version: 1, name: flow.name, graph: flow.graph }, 'test');
    const analysis = analyseGraph(flow.graph, catalogue);
    expect(analysis.problems).toEqual([]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    for (const [id, n] of analysis.nodes) {
      expect(svg).toContain(`data-node-id="${id}" data-node-kind="${shapeOf(n.node.type, catalogue)}" data-node-type="${n.node.type}"`);
      expect(svg).toContain(`>${attr(n.node.label ?? id).slice(0, 10)}`);
    }
    expect(svg.match(/data-node-id=/g)?.length).toBe(analysis.nodes.size);
    for (const e of analysis.edges) expect(svg).toContain(`data-edge-from="${e.from}" data-edge-to="${e.to}" data-edge-branch="${e.branch}"`);
    expect(svg.match(/data-edge-from=/g)?.length).toBe(analysis.edges.length);
    // Without live state nothing live is drawn (the API's drawing).
    expect(svg).not.toContain('data-node-status');
    expect(svg).not.toContain('data-edge-status');
    // The CSP allows no inline style: presentation attributes only.
    expect(svg).not.toMatch(/style=|<style/);
  });

  it('the drawing of a version is stable: the same text from a cold cache, and from the cache itself', async () => {
    // Two caches of their own: each flow is new to both (a cache keeps each content apart).
    const [own, other] = [fresh(), fresh()];
    for (const [i, flow] of builtins.entries()) {
      const v = { flowId: flow.id, version: 3, name: flow.name, graph: flow.graph };
      const first = await own.svg(v, 'test');
      expect(await own.svg(v, 'test')).toBe(first);
      expect(await other.svg(v, 'test')).toBe(first);
      expect(own.size).toBe(i + 1);
      expect(own.layoutsStarted).toBe(i + 1);
    }
  });

  it('branch names are drawn on the edges of a node that leaves by more than one branch', async () => {
    const flow = builtins.find((b) => b.id === 'tpl-marketplace-order')!;
    const svg = await diagrams.svg({ flowId: flow.id, version: 1, name: flow.name, graph: flow.graph }, 'test');
    const branches = analyseGraph(flow.graph, catalogue).edges.filter((e) => e.from === 'fraud').map((e) => e.branch);
    expect(branches.length).toBeGreaterThan(1);
    for (const b of branches) expect(svg).toMatch(new RegExp(`data-edge-from="fraud"[^>]*data-edge-branch="${b}"[^]*?<text class="edge-label"[^>]*>${b}</text>`));
  });

  it('drawn with live state, every node and edge carries its status as an attribute and nodes as text', async () => {
    const flow = builtins.find((b) => b.id === 'tpl-pos-sale')!;
    const analysis = analyseGraph(flow.graph, catalogue);
    const [first] = analysis.edges;
    const svg = await diagrams.liveSvg(
      { flowId: flow.id, version: 1, name: flow.name, graph: flow.graph },
      { nodes: { [first.from]: 'succeeded', [first.to]: 'running' }, edges: { [edgeKey(first.from, first.to, first.branch)]: 'active' } },
      'test',
    );
    expect(svg).toContain(`data-node-id="${first.from}" data-node-kind="trigger" data-node-type="trigger.api" data-node-status="succeeded"`);
    expect(svg).toMatch(new RegExp(`data-node-id="${first.to}"[^>]*data-node-status="running"[^]*?<text class="node-status"[^>]*>running</text>`));
    expect(svg).toContain(`data-edge-from="${first.from}" data-edge-to="${first.to}" data-edge-branch="${first.branch}" data-edge-status="active"`);
    expect(svg.match(/data-node-status=/g)?.length).toBe(analysis.nodes.size);
    expect(svg.match(/data-edge-status=/g)?.length).toBe(analysis.edges.length);
    expect(svg.match(/data-node-status="pending"/g)?.length).toBe(analysis.nodes.size - 2);
  });

  it('a draft with problems is still drawn: unknown types get their own shape, edges to missing nodes are left out, text is escaped', async () => {
    const svg = await diagrams.draftSvg('x', 'X <draft>', {
      nodes: [
        { id: 'start', type: 'trigger.api', label: 'A "quoted" <label>' },
        { id: 'mystery', type: 'no.such.type' },
      ],
      edges: [{ from: 'start', to: 'mystery' }, { from: 'start', to: 'ghost' }],
    }, 'test');
    expect(svg).toContain('data-node-id="mystery" data-node-kind="unknown"');
    expect(svg).not.toContain('data-edge-to="ghost"');
    expect(svg).toContain('A &quot;quoted&quot; &lt;label&gt;');
    expect(svg).toContain('X &lt;draft&gt;: draft');
  });
});
