// Issue 29's rule that steps reach data only through their ports: nothing a node type (or the decision core) loads
// at run time opens the database client, directly or through another module. Checked on src/ and on planted trees.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importChain, importGraph, runtimePackageImports } from '../../support/import-graph.js';
import { plantedTrees } from '../../support/planted-trees.js';

/**
 * The files that must not reach the database: every node type, the pure decision core of the engine, and a simulation's
 * host and ports (issue 31: a simulation reads its snapshot first, then runs its steps with no connection at all).
 */
const PURE = (file: string) =>
  file.startsWith('nodes/') ||
  /^engine\/run\/decide[^/]*\.ts$/.test(file) ||
  file.startsWith('engine/run/core/') ||
  file.startsWith('engine/simulation/') ||
  file.startsWith('commerce/simulated-ports/');

/** A chain from `file` to a module of the database layer or one loading `pg`, or null. */
function databaseChains(root: string): string[] {
  const graph = importGraph(root, true);
  const packages = runtimePackageImports(root);
  const opensDatabase = (f: string) => f.startsWith('db/') || (packages.get(f) ?? []).some((p) => p === 'pg' || p.startsWith('pg/') || p === 'pg-protocol');
  const out: string[] = [];
  for (const file of graph.keys()) {
    if (!PURE(file)) continue;
    const chain = importChain(graph, file, opensDatabase);
    if (chain) out.push(chain.join(' -> '));
  }
  return out;
}

const trees = plantedTrees('db-reach-');
const plant = trees.plant;
afterAll(() => trees.removeAll());

describe('steps reach data only through ports', () => {
  it('no node type, no part of the decision core and nothing of a simulation (its host, its ports) loads the database client, directly or through what it imports', () => {
    expect(databaseChains(path.resolve('src'))).toEqual([]);
  });

  it('fails on a step that imports the database layer', () => {
    const root = plant({ 'nodes/step.ts': "import { q } from '../db/db.js';\nexport const s = q;\n", 'db/db.ts': "import pg from 'pg';\nexport const q = pg;\n" });
    expect(databaseChains(root)).toEqual(['nodes/step.ts -> db/db.ts']);
  });

  it('fails on a step that reaches pg through a repository, and on the decision core importing pg', () => {
    const root = plant({
      'nodes/step.ts': "import { r } from '../commerce/stock-repo.js';\nexport const s = r;\n",
      'commerce/stock-repo.ts': "import pg from 'pg';\nexport const r = pg;\n",
      'engine/run/decide.ts': "import pg from 'pg';\nexport const d = pg;\n",
    });
    expect(databaseChains(root).sort()).toEqual(['engine/run/decide.ts', 'nodes/step.ts -> commerce/stock-repo.ts'].sort());
  });

  it('fails on a simulated port that reads through a repository, and on a simulation host that opens the database', () => {
    const root = plant({
      'commerce/simulated-ports/simulated-stock-port.ts': "import { r } from '../stock-repo.js';\nexport const s = r;\n",
      'commerce/stock-repo.ts': "import pg from 'pg';\nexport const r = pg;\n",
      'engine/simulation/simulated-run.ts': "import { db } from '../../db/db.js';\nexport const h = db;\n",
      'db/db.ts': "import pg from 'pg';\nexport const db = pg;\n",
    });
    expect(databaseChains(root).sort()).toEqual(['commerce/simulated-ports/simulated-stock-port.ts -> commerce/stock-repo.ts', 'engine/simulation/simulated-run.ts -> db/db.ts'].sort());
  });

  it('keeps quiet on type-only imports of row types and on ports', () => {
    const root = plant({
      'nodes/step.ts': "import type { Row } from '../commerce/stock-repo.js';\nimport { type Port } from '../commerce/ports/stock-port.js';\nexport type S = [Row, Port];\n",
      'commerce/stock-repo.ts': "import pg from 'pg';\nexport interface Row { a: number }\nexport const r = pg;\n",
      'commerce/ports/stock-port.ts': "import type { Row } from '../stock-repo.js';\nexport interface Port { read(): Row }\n",
    });
    expect(databaseChains(root)).toEqual([]);
  });
});
