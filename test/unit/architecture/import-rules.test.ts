// The layer rules of docs/architecture.md, checked on src/ in every run: no import cycle (type imports included),
// and inner layers import no outer one. The check itself is tested on planted trees.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, layerViolations, packageImports, type LayerRule } from '../../support/import-graph.js';

/** Outer layers: the edges and the composition root. */
const EDGES = ['app', 'http', 'web', 'channels', 'webhooks'] as const;

/** docs/architecture.md "Layers": dependencies point inward. */
const LAYER_RULES: readonly LayerRule[] = [
  { from: 'domain', notInto: [...EDGES, 'engine', 'auth', 'nodes'], why: 'domain rules are pure: no engine, no edge' },
  { from: 'engine', notInto: [...EDGES, 'auth'], why: 'the engine is hosted by the service, not the reverse' },
  { from: 'db', notInto: [...EDGES, 'auth', 'domain', 'nodes'], why: 'the database layer serves everything above it' },
  { from: 'lib', notInto: [...EDGES, 'engine', 'auth', 'domain', 'db', 'nodes'], why: 'lib holds dependency-free helpers' },
  { from: 'auth', notInto: ['app', 'http', 'web', 'channels', 'webhooks'], why: 'identity is an application service, not an edge' },
];

const planted: string[] = [];
function plant(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oo-imports-'));
  planted.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}
afterAll(() => {
  for (const root of planted) fs.rmSync(root, { recursive: true, force: true });
});

describe('the import check (tested on planted trees)', () => {
  it('finds a cycle made only of type imports', () => {
    const root = plant({
      'engine/a.ts': "import type { B } from '../app/b.js';\nexport type A = B;\n",
      'app/b.ts': "import type { A } from '../engine/a.js';\nexport type B = { a?: A };\n",
      'app/c.ts': "import { x } from 'some-package';\nexport const c = x;\n",
    });
    expect(importCycles(importGraph(root))).toEqual([['app/b.ts', 'engine/a.ts']]);
  });

  it('finds an inner layer importing an outer one, and nothing in a tree that keeps the rules', () => {
    const bad = plant({ 'engine/a.ts': "import { b } from '../http/b.js';\n", 'http/b.ts': 'export const b = 1;\n' });
    expect(layerViolations(importGraph(bad), LAYER_RULES)).toEqual(['engine/a.ts -> http/b.ts (the engine is hosted by the service, not the reverse)']);
    const good = plant({ 'http/a.ts': "import { b } from '../engine/b.js';\n", 'engine/b.ts': 'export const b = 1;\n' });
    expect(layerViolations(importGraph(good), LAYER_RULES)).toEqual([]);
    expect(importCycles(importGraph(good))).toEqual([]);
  });
});

describe('src/ keeps the layer rules', () => {
  const graph = importGraph(path.resolve('src'));

  it('has no import cycle, type imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('inner layers import no outer layer', () => {
    expect(layerViolations(graph, LAYER_RULES)).toEqual([]);
  });

  it('the web framework stays at the edges: domain, engine, db and auth import no Koa', () => {
    const framework = /^(koa|@koa\/)/;
    const inner = new Set(['domain', 'engine', 'db', 'auth', 'lib']);
    const offenders = [...packageImports(path.resolve('src'))]
      .filter(([file]) => inner.has(file.split('/')[0]))
      .flatMap(([file, packages]) => packages.filter((p) => framework.test(p)).map((p) => `${file} -> ${p}`));
    expect(offenders).toEqual([]);
  });
});
