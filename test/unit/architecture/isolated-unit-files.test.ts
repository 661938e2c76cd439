// The unit and integration projects run without per-file isolation (vitest.config.ts): a unit test file that replaces
// a module (vi.mock / vi.doMock) must be listed in ISOLATED_UNIT_FILES, which runs it isolated, and the list names
// nothing else; an integration test file may not replace a module at all (they share one module graph per worker).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_UNIT_FILES } from '../../../vitest.config.js';

/** A call of vi.mock or vi.doMock as a statement of its own (hoisted or not). */
const MOCKS_A_MODULE = /^\s*vi\.(?:mock|doMock)\(/m;

/** The `*.test.ts` files below `dir` (paths relative to `root`, with `/`) that replace a module. */
function filesReplacingModules(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesReplacingModules(root, rel));
    else if (entry.name.endsWith('.test.ts') && MOCKS_A_MODULE.test(readFileSync(path.join(root, rel), 'utf8'))) out.push(rel);
  }
  return out.sort();
}

describe('unit files that replace a module run isolated', () => {
  it('ISOLATED_UNIT_FILES is exactly the unit test files calling vi.mock or vi.doMock', () => {
    expect(filesReplacingModules(process.cwd(), 'test/unit')).toEqual([...ISOLATED_UNIT_FILES].sort());
  });

  it('no integration test file calls vi.mock or vi.doMock', () => {
    expect(filesReplacingModules(process.cwd(), 'test/integration')).toEqual([]);
  });

  it('the scan finds a planted vi.mock in a nested file and passes over a file that only spies', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'oo-isolated-'));
    try {
      mkdirSync(path.join(root, 'test/unit/deep'), { recursive: true });
      writeFileSync(path.join(root, 'test/unit/deep/mocked.test.ts'), "vi.mock('../x.js', () => ({}));\n");
      writeFileSync(path.join(root, 'test/unit/spied.test.ts'), "vi.spyOn(console, 'log');\n");
      expect(filesReplacingModules(root, 'test/unit')).toEqual(['test/unit/deep/mocked.test.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
