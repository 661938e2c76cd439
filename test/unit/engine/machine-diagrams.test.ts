// machines/diagrams/<id>.svg are generated from machines/<id>.json by the service's own renderer (the SVG that
// GET /api/v1/flows/<id>/versions/1/diagram.svg serves on a fresh database) and must match it; machines/README.md shows each.
// Regenerate with UPDATE_MACHINE_DIAGRAMS=1 npx vitest run test/unit/engine/machine-diagrams.test.ts
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../src/nodes/commerce-node-types.js';
import { machinesDir } from '../../../src/engine/flows/builtin-flows.js';
import { FlowDiagrams } from '../../../src/engine/flows/flow-diagrams.js';

const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
const diagramsDir = path.join(machinesDir, 'diagrams');
const update = process.env.UPDATE_MACHINE_DIAGRAMS === '1';
const builtins = readdirSync(machinesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(machinesDir, f), 'utf8')) as { id: string; name: string; graph: unknown });

describe('machines/diagrams are the drawings of machines/*.json (generated, never hand-kept)', () => {
  const diagrams = new FlowDiagrams(catalogue, { startsPerCaller: { limit: Number.POSITIVE_INFINITY, windowMs: 1 } });
  afterAll(() => diagrams.close());

  it.each(builtins.map((b) => [b.id, b] as const))('%s.svg matches what the service draws for version 1', async (id, flow) => {
    const svg = `${await diagrams.svg({ flowId: id, version: 1, name: flow.name, graph: flow.graph }, 'test')}\n`;
    const file = path.join(diagramsDir, `${id}.svg`);
    if (update) {
      mkdirSync(diagramsDir, { recursive: true });
      writeFileSync(file, svg);
    }
    expect(existsSync(file), `${file} is missing: run with UPDATE_MACHINE_DIAGRAMS=1`).toBe(true);
    expect(readFileSync(file, 'utf8'), `${file} is stale: run with UPDATE_MACHINE_DIAGRAMS=1`).toBe(svg);
  });

  it('machines/README.md shows every drawing and names the diagram.svg route, with no hand-kept Mermaid left', () => {
    const readme = readFileSync(path.join(machinesDir, 'README.md'), 'utf8');
    for (const b of builtins) {
      expect(readme).toContain(`(diagrams/${b.id}.svg)`);
      expect(readme).toContain(`/api/v1/flows/${b.id}/versions/`);
    }
    expect(readme).not.toContain('```mermaid');
    expect(readdirSync(diagramsDir).filter((f) => f.endsWith('.svg')).sort()).toEqual(builtins.map((b) => `${b.id}.svg`).sort());
  });
});
