// The flow drawing is well-formed XML (each attribute once, tags balanced), so a browser shows diagram.svg as an image and
// the editor's DOMParser reads it without a parser error; checked on every built-in flow, live and as drafts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../src/nodes/commerce-node-types.js';
import { machinesDir } from '../../../src/engine/flows/builtin-flows.js';
import { FlowDiagrams } from '../../../src/engine/flows/flow-diagrams.js';
import { markProblemNodes } from '../../../src/engine/flows/flow-diagram-problems.js';
import { diagramModel } from '../../../src/engine/flows/flow-diagram-model.js';
import { renderFlowListSvg } from '../../../src/engine/flows/flow-list-svg.js';

const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
const builtins = readdirSync(machinesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(machinesDir, f), 'utf8')) as { id: string; name: string; graph: { nodes: { id: string; type: string }[] } });

/** The well-formedness faults of an XML text this renderer can produce: a repeated attribute, an unbalanced tag, a bare `&` or `<`. */
function xmlFaults(xml: string): string[] {
  const faults: string[] = [];
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>/g)) {
    const [, closing, name, attrs, selfClosing] = m;
    const names = [...attrs.matchAll(/\s([\w:-]+)="/g)].map((a) => a[1]);
    const repeated = names.filter((n, i) => names.indexOf(n) !== i);
    if (repeated.length) faults.push(`<${name}> repeats ${repeated.join(', ')}`);
    if (closing) {
      if (stack.pop() !== name) faults.push(`</${name}> closes the wrong element`);
    } else if (!selfClosing) stack.push(name);
  }
  if (stack.length) faults.push(`unclosed: ${stack.join(', ')}`);
  const text = xml.replace(/<[^>]*>/g, '');
  if (/&(?!(amp|lt|gt|quot|#\d+);)/.test(text) || /</.test(text)) faults.push('a bare & or < in text');
  return faults;
}

describe('flow drawings are well-formed XML', () => {
  it('the checker finds a repeated attribute and an unclosed element', () => {
    expect(xmlFaults('<svg><rect a="1" a="2"/></svg>')).toEqual(['<rect> repeats a']);
    expect(xmlFaults('<svg><g></svg>')).not.toEqual([]);
  });

  const diagrams = new FlowDiagrams(catalogue, { startsPerCaller: { limit: Number.POSITIVE_INFINITY, windowMs: 1 } });
  afterAll(() => diagrams.close());

  it.each(builtins.map((b) => [b.id, b] as const))('%s: published, live and draft drawings', async (_id, flow) => {
    const v = { flowId: flow.id, version: 1, name: flow.name, graph: flow.graph };
    expect(xmlFaults(await diagrams.svg(v, 'test'))).toEqual([]);
    const nodes = Object.fromEntries(flow.graph.nodes.map((n, i) => [n.id, i % 2 ? 'succeeded' : 'waiting']));
    expect(xmlFaults(await diagrams.liveSvg(v, { nodes, edges: {} }, 'test'))).toEqual([]);
    const draft = { ...flow.graph, nodes: [...flow.graph.nodes, { id: 'odd_one', type: 'no.such.type', label: 'A & B <c> "d"' }] };
    expect(xmlFaults(markProblemNodes(await diagrams.draftSvg(flow.id, flow.name, draft, 'test'), [{ nodeId: 'odd_one' }]))).toEqual([]);
  });

  it('the list drawing (a graph too large to lay out in its budget) is well-formed too, live and with problems marked', () => {
    const flow = builtins[0];
    const model = diagramModel({ ...flow.graph, nodes: [...flow.graph.nodes, { id: 'odd_one', type: 'no.such.type', label: 'A & B <c> "d"' }] }, catalogue);
    const list = renderFlowListSvg(model, `${flow.id}-draft`, 'X <draft> & "y"', 'over-budget');
    expect(list).toContain('data-drawing="list"');
    expect(xmlFaults(markProblemNodes(list, [{ nodeId: 'odd_one' }]))).toEqual([]);
    const nodes = Object.fromEntries(flow.graph.nodes.map((n, i) => [n.id, i % 2 ? 'succeeded' : 'waiting']));
    expect(xmlFaults(renderFlowListSvg(model, flow.id, 'live', 'busy', { nodes, edges: {} }))).toEqual([]);
  });
});
