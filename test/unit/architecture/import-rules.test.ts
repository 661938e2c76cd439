// The layer rules of docs/architecture.md, checked on src/ in every run: no import cycle (type imports included),
// and inner layers import no outer one. The check itself is tested on planted trees.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, layerViolations, packageImports, type LayerRule } from '../../support/import-graph.js';

/** Outer layers: the transports and the composition root. */
const EDGES = ['server', 'http', 'web', 'mcp', 'a2a', 'oauth'] as const;
/** Features with edges of their own (inbound adapters, outbound delivery): above the operations' reach only for their stores. */
const CHANNEL_FEATURES = ['channels', 'webhooks', 'notifications'] as const;

/** docs/architecture.md "Layers": dependencies point inward. */
const LAYER_RULES: readonly LayerRule[] = [
  { from: 'domain', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'engine', 'auth', 'nodes', 'db'], why: 'domain rules are pure: no database, no engine, no edge' },
  { from: 'commerce', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'auth', 'nodes'], why: 'commerce stores and gateways serve the steps and the orders feature' },
  { from: 'engine', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'auth'], why: 'the engine owns runs and is hosted by the service, not the reverse' },
  { from: 'db', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'auth', 'domain', 'nodes'], why: 'the database layer serves everything above it' },
  { from: 'lib', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'engine', 'auth', 'domain', 'db', 'nodes'], why: 'lib holds dependency-free helpers' },
  { from: 'auth', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders'], why: 'identity is a feature the operations use, not an edge' },
  { from: 'orders', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application'], why: 'the orders feature serves the operations and the channels' },
  { from: 'nodes', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application'], why: 'steps run inside the engine: no transport, no operation' },
  { from: 'application', notInto: EDGES, why: 'operations are transport-free: every edge binds them, none is imported' },
  { from: 'channels', notInto: [...EDGES, 'application'], why: 'channel adapters call the orders feature; the HTTP edge mounts them' },
  { from: 'webhooks', notInto: [...EDGES, 'application', 'channels'], why: 'outbound delivery is a feature the orders module wires' },
  { from: 'notifications', notInto: [...EDGES, 'application', 'channels'], why: 'notification delivery is a feature its module wires; it reuses webhook delivery' },
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
    expect(layerViolations(importGraph(bad), LAYER_RULES)).toEqual(['engine/a.ts -> http/b.ts (the engine owns runs and is hosted by the service, not the reverse)']);
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

  it('the web framework stays at the edges: domain, engine, db, auth, orders and the application import no Koa', () => {
    const framework = /^(koa|@koa\/)/;
    const inner = new Set(['domain', 'engine', 'db', 'auth', 'lib', 'orders', 'application']);
    const offenders = [...packageImports(path.resolve('src'))]
      .filter(([file]) => inner.has(file.split('/')[0]))
      .flatMap(([file, packages]) => packages.filter((p) => framework.test(p)).map((p) => `${file} -> ${p}`));
    expect(offenders).toEqual([]);
  });
});
