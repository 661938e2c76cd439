// The decision core stays pure (issue 29): what decide.ts loads at run time reaches no database client, no clock and no randomness.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

/** The modules a file loads at run time: its imports and re-exports that are not type-only (those TypeScript erases). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.Latest);
  const specs: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const onlyTypes = clause !== undefined && (clause.isTypeOnly || (!clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      if (!onlyTypes && ts.isStringLiteral(node.moduleSpecifier)) specs.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specs.push(node.moduleSpecifier.text);
  }
  return specs;
}

/** Every file of ours and every package `entry` loads at run time, following relative imports. */
function runtimeClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of valueImports(file)) {
      if (!spec.startsWith('.')) packages.add(spec);
      else queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec.replace(/\.js$/, '.ts'))));
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

describe('the decision core is pure', () => {
  const closure = runtimeClosure('engine/run/decide.ts');

  it('loads no database client or store: no db/ module, no pg, only xstate, zod and node:crypto (hashing ids)', () => {
    expect(closure.files.filter((f) => f.startsWith('db/') || f.startsWith('telemetry/'))).toEqual([]);
    expect(closure.packages).toEqual(['node:crypto', 'xstate', 'zod']);
  });

  it('reads no clock and draws no random number: time and a new run’s instance id come with the input', () => {
    const offenders = closure.files.filter((f) => /Date\.now\(|new Date\(\)|Math\.random\(|randomUUID|performance\.now\(/.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the files of the core import nothing from the database layer, not even a type', () => {
    const core = fs.readdirSync(path.join(SRC, 'engine/run')).filter((f) => !['run-host.ts', 'step-invoker.ts'].includes(f));
    const imports = core.flatMap((f) => {
      const source = ts.createSourceFile(f, fs.readFileSync(path.join(SRC, 'engine/run', f), 'utf8'), ts.ScriptTarget.Latest);
      return source.statements.flatMap((s) => (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) ? [`${f} -> ${s.moduleSpecifier.text}`] : []));
    });
    expect(imports.filter((i) => /\/db\/|'pg'|-> pg$/.test(i))).toEqual([]);
    expect(core).toContain('decide.ts');
  });
});
