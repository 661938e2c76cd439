// The layer rules of docs/architecture.md, checked on src/ in every run: no import cycle (type imports included),
// and inner layers import no outer one. The check itself is tested on planted trees.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, layerViolations, packageImports, type LayerRule } from '../../support/import-graph.js';
import { plantedTrees } from '../../support/planted-trees.js';

/** The composition root and what only it wires (metrics, request timing): no other layer imports them. */
const ROOT = ['server', 'observability'] as const;
/** The faces: transports standing side by side under the root. */
const FACES = ['http', 'web', 'mcp', 'a2a', 'oauth'] as const;
/** The plumbing every face shares (bodies, JSON limits, error map, security headers, sockets, forms, cookies, the page kit): below the faces. */
const TRANSPORT = 'transport';
/** Outer layers: the composition root, the faces and the plumbing they share. */
const EDGES = [...ROOT, ...FACES, TRANSPORT] as const;
/** Features with edges of their own (inbound adapters, outbound delivery): above the operations' reach only for their stores. */
const CHANNEL_FEATURES = ['channels', 'webhooks', 'notifications'] as const;

/** docs/architecture.md "Layers": dependencies point inward. */
const LAYER_RULES: readonly LayerRule[] = [
  { from: 'domain', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'engine', 'auth', 'nodes', 'db'], why: 'domain rules are pure: no database, no engine, no edge' },
  { from: 'commerce', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'auth', 'nodes'], why: 'commerce stores and gateways serve the steps and the orders feature' },
  { from: 'engine', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'auth', 'config'], why: 'the engine owns runs and is hosted by the service, not the reverse' },
  { from: 'engine', notInto: ['nodes'], why: 'the engine imports no node type: the composition root hands them in (createEngine({ nodeTypes }))' },
  { from: 'db', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'auth', 'domain', 'nodes', 'config'], why: 'the database layer serves everything above it' },
  { from: 'db', notInto: ['engine'], why: 'the database layer sits below the engine: time comes from platform' },
  { from: 'platform', onlyInto: ['lib', 'logging'], why: 'platform (clock, durations, health checks) is the floor: it imports only lib and logging' },
  { from: 'config', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'auth', 'nodes', 'engine'], why: 'configuration is read before the engine exists: durations come from platform' },
  { from: 'lib', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders', 'commerce', 'engine', 'auth', 'domain', 'db', 'nodes', 'platform', 'config'], why: 'lib holds dependency-free helpers' },
  { from: 'auth', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'orders'], why: 'identity is a feature the operations use, not an edge' },
  { from: 'orders', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application'], why: 'the orders feature serves the operations and the channels' },
  { from: 'nodes', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application'], why: 'steps run inside the engine: no transport, no operation' },
  { from: 'batches', notInto: [...EDGES, ...CHANNEL_FEATURES, 'application', 'nodes'], why: 'the batches feature (its tables, claims and pace) serves the batch operations and worker, which run orders through the registry' },
  { from: 'engine', notInto: ['batches'], why: 'the engine owns runs and is hosted by the service, not the reverse' },
  { from: 'orders', notInto: ['batches'], why: 'the orders feature serves the operations and the channels' },
  { from: 'application', notInto: EDGES, why: 'operations are transport-free: every edge binds them, none is imported' },
  ...FACES.map((face) => ({ from: face, notInto: ROOT, why: 'a face is mounted by the composition root and imports neither it nor the metrics it wires' })),
  ...FACES.map((face) => ({ from: face, notInto: FACES.filter((other) => other !== face), why: 'the faces stand side by side: what two of them share lives below them (src/transport, or a port under application)' })),
  { from: TRANSPORT, notInto: [...ROOT, ...FACES, 'application', ...CHANNEL_FEATURES, 'orders', 'commerce', 'nodes', 'engine'], why: 'transport is the plumbing under every face: no face, no composition root, no operation, no order, channel or engine code' },
  { from: 'observability', notInto: [...FACES, 'server', 'application', ...CHANNEL_FEATURES, 'nodes'], why: 'observability listens to the engine; its module lives in server, which wires it' },
  { from: 'channels', notInto: [...EDGES, 'application'], why: 'channel adapters call the orders feature; the HTTP edge mounts them' },
  { from: 'webhooks', notInto: [...EDGES, 'application', 'channels'], why: 'outbound delivery is a feature the orders module wires' },
  { from: 'notifications', notInto: [...EDGES, 'application', 'channels'], why: 'notification delivery is a feature its module wires; it reuses webhook delivery' },
];

const trees = plantedTrees('oo-imports-');
const plant = trees.plant;
afterAll(() => trees.removeAll());

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

/** The why of each rule a planted back-arrow must break. */
const WHY = {
  dbBelowEngine: 'the database layer sits below the engine: time comes from platform',
  engineNoNodes: 'the engine imports no node type: the composition root hands them in (createEngine({ nodeTypes }))',
  engine: 'the engine owns runs and is hosted by the service, not the reverse',
  face: 'a face is mounted by the composition root and imports neither it nor the metrics it wires',
  faceSibling: 'the faces stand side by side: what two of them share lives below them (src/transport, or a port under application)',
  transport: 'transport is the plumbing under every face: no face, no composition root, no operation, no order, channel or engine code',
  application: 'operations are transport-free: every edge binds them, none is imported',
  observability: 'observability listens to the engine; its module lives in server, which wires it',
  config: 'configuration is read before the engine exists: durations come from platform',
  platform: 'platform (clock, durations, health checks) is the floor: it imports only lib and logging',
  orders: 'the orders feature serves the operations and the channels',
  nodes: 'steps run inside the engine: no transport, no operation',
  batches: 'the batches feature (its tables, claims and pace) serves the batch operations and worker, which run orders through the registry',
};

describe('each layer rule fails on its back-arrow planted again', () => {
  const arrows: [rule: string, from: string, into: string, why: string][] = [
    ['db never imports engine (db/migrate.ts -> engine/clock.ts)', 'db/migrate.ts', 'engine/clock.ts', WHY.dbBelowEngine],
    ['engine never imports nodes (engine/catalogue.ts -> nodes/end.ts)', 'engine/catalogue.ts', 'nodes/end.ts', WHY.engineNoNodes],
    ['engine never imports nodes (engine/engine-module.ts -> nodes/commerce-node-types.ts)', 'engine/engine-module.ts', 'nodes/commerce-node-types.ts', WHY.engineNoNodes],
    ['engine never imports commerce', 'engine/runtime/run-slice.ts', 'commerce/stock-store.ts', WHY.engine],
    ['engine never imports orders', 'engine/runtime/run-slice.ts', 'orders/start-order.ts', WHY.engine],
    ['engine never imports application', 'engine/engine-module.ts', 'application/operation.ts', WHY.engine],
    ['engine never imports an edge', 'engine/engine-module.ts', 'http/route.ts', WHY.engine],
    ['a face never imports server (http/routes/system-routes.ts -> server/health.ts)', 'http/routes/system-routes.ts', 'server/health.ts', WHY.face],
    ['a face never imports server (web)', 'web/pages/page.ts', 'server/service-context.ts', WHY.face],
    ['a face never imports server (a2a)', 'a2a/a2a-executor.ts', 'server/service-context.ts', WHY.face],
    ['a face never imports server (mcp)', 'mcp/mcp-router.ts', 'server/service-context.ts', WHY.face],
    ['a face never imports server (oauth)', 'oauth/oauth-router.ts', 'server/service-context.ts', WHY.face],
    ['a face never imports observability (only server wires it)', 'http/app.ts', 'observability/http-metrics.ts', WHY.face],
    ['a feature never imports observability (only server wires it)', 'orders/start-order.ts', 'observability/service-metrics.ts', WHY.orders],
    ['observability never imports server (observability/observability-module.ts -> server/service-module.ts)', 'observability/observability-module.ts', 'server/service-module.ts', WHY.observability],
    ['config never imports engine (config/workspace-schema.ts -> engine/duration.ts)', 'config/workspace-schema.ts', 'engine/duration.ts', WHY.config],
    ['platform imports only lib and logging (-> engine)', 'platform/clock.ts', 'engine/engine-module.ts', WHY.platform],
    ['platform imports only lib and logging (-> db)', 'platform/health.ts', 'db/db.ts', WHY.platform],
    ['platform imports only lib and logging (-> config)', 'platform/duration.ts', 'config/env.ts', WHY.platform],
    ['nodes import no edge', 'nodes/http-call.ts', 'http/route.ts', WHY.nodes],
    ['a face never imports another face (oauth -> web: the consent pages)', 'oauth/oauth-router.ts', 'web/oauth/consent-pages.ts', WHY.faceSibling],
    ['a face never imports another face (web -> a2a: the assistant conversations)', 'web/assistant/assistant-socket.ts', 'a2a/a2a-conversations.ts', WHY.faceSibling],
    ['a face never imports another face (web -> http: the error map)', 'web/order-live-socket.ts', 'http/http-errors.ts', WHY.faceSibling],
    ['a face never imports another face (a2a -> http: body reading)', 'a2a/a2a-endpoint.ts', 'http/read-body.ts', WHY.faceSibling],
    ['a face never imports another face (mcp -> http: body reading)', 'mcp/mcp-endpoint.ts', 'http/read-body.ts', WHY.faceSibling],
    ['a face never imports another face (http -> oauth)', 'http/create-app.ts', 'oauth/oauth-keys.ts', WHY.faceSibling],
    ['transport never imports a face', 'transport/read-form.ts', 'web/identity/identity-router.ts', WHY.transport],
    ['transport never imports the composition root', 'transport/upgrade-dispatcher.ts', 'server/service-context.ts', WHY.transport],
    ['transport never imports application', 'transport/http-errors.ts', 'application/operation.ts', WHY.transport],
    ['application never imports transport (operations are transport-free)', 'application/operation-registry.ts', 'transport/read-body.ts', WHY.application],
    ['nodes import no observability', 'nodes/end.ts', 'observability/service-metrics.ts', WHY.nodes],
    ['batches never import the operations (the worker calls the registry, not the reverse)', 'batches/batch-claims.ts', 'application/operation-registry.ts', WHY.batches],
    ['batches import no face', 'batches/batch-store.ts', 'http/route.ts', WHY.batches],
    ['the orders feature never imports batches', 'orders/order-list.ts', 'batches/batch-store.ts', WHY.orders],
  ];

  it.each(arrows)('%s', (_rule, from, into, why) => {
    const depth = from.split('/').length - 1;
    const spec = `${'../'.repeat(depth)}${into.replace(/\.ts$/, '.js')}`;
    const root = plant({ [from]: `import { x } from '${spec}';\nexport const y = x;\n`, [into]: 'export const x = 1;\n' });
    expect(layerViolations(importGraph(root), LAYER_RULES)).toEqual([`${from} -> ${into} (${why})`]);
  });

  it('keeps quiet on the arrows that point down: server wires observability and hands the engine src/nodes; the faces share transport; the floor serves all', () => {
    const root = plant({
      'web/identity/identity-router.ts': "import { f } from '../../transport/read-form.js';\nimport { p } from '../../application/assistant/assistant-conversations.js';\nexport const r = [f, p];\n",
      'oauth/oauth-router.ts': "import { f } from '../transport/read-form.js';\nexport const r = f;\n",
      'a2a/a2a-conversations.ts': "import { p } from '../application/assistant/assistant-conversations.js';\nexport const c = p;\n",
      'application/assistant/assistant-conversations.ts': 'export const p = 1;\n',
      'transport/read-form.ts': "import { e } from '../domain/errors.js';\nimport { a } from '../auth/principal.js';\nexport const f = [e, a];\n",
      'domain/errors.ts': 'export const e = 1;\n',
      'auth/principal.ts': 'export const a = 1;\n',
      'server/modules.ts': "import { o } from '../observability/metrics.js';\nimport { n } from '../nodes/builtin-node-types.js';\nexport const m = [o, n];\n",
      'observability/metrics.ts': "import { e } from '../engine/engine-probe.js';\nexport const o = e;\n",
      'nodes/builtin-node-types.ts': "import { e } from '../engine/engine-probe.js';\nexport const n = e;\n",
      'engine/engine-probe.ts': "import { c } from '../platform/clock.js';\nexport const e = c;\n",
      'db/migrate.ts': "import { c } from '../platform/clock.js';\nexport const d = c;\n",
      'config/workspace-schema.ts': "import { c } from '../platform/clock.js';\nexport const w = c;\n",
      'http/routes/system-routes.ts': "import { h } from '../../platform/health.js';\nexport const r = h;\n",
      'platform/clock.ts': "import { l } from '../lib/helper.js';\nimport { g } from '../logging/logger.js';\nexport const c = [l, g];\n",
      'platform/health.ts': "import { c } from './clock.js';\nexport const h = c;\n",
      'lib/helper.ts': 'export const l = 1;\n',
      'logging/logger.ts': 'export const g = 1;\n',
    });
    expect(layerViolations(importGraph(root), LAYER_RULES)).toEqual([]);
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

  it('the web framework stays at the edges: domain, platform, engine, db, auth, orders, batches and the application import no Koa', () => {
    const framework = /^(koa|@koa\/)/;
    const inner = new Set(['domain', 'platform', 'engine', 'db', 'auth', 'lib', 'orders', 'batches', 'application']);
    const offenders = [...packageImports(path.resolve('src'))]
      .filter(([file]) => inner.has(file.split('/')[0]))
      .flatMap(([file, packages]) => packages.filter((p) => framework.test(p)).map((p) => `${file} -> ${p}`));
    expect(offenders).toEqual([]);
  });
});
