// The import graph of a TypeScript tree (type imports included), its cycles, and layer-rule violations.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** file -> the files of the tree it imports (relative specifiers resolved; packages left out). */
export type ImportGraph = Map<string, string[]>;

/** Every .ts file under `root` (relative, forward slashes) with the module specifiers of its imports and re-exports. */
function moduleSpecifiers(root: string): Map<string, string[]> {
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(path.sep).join('/'));
  const out = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest);
    const specs: string[] = [];
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
      const spec = node.moduleSpecifier;
      if (spec && ts.isStringLiteral(spec)) specs.push(spec.text);
    }
    out.set(file, specs);
  }
  return out;
}

/** Reads every .ts file under `root` (paths relative to `root`, with forward slashes). */
export function importGraph(root: string): ImportGraph {
  const specifiers = moduleSpecifiers(root);
  const graph: ImportGraph = new Map();
  for (const [file, specs] of specifiers) {
    const targets = specs
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec.replace(/\.js$/, '.ts'))))
      .filter((target) => specifiers.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted; [] when the graph has no cycle. */
export function importCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** file -> the packages it imports (bare specifiers such as `koa`, `@koa/router`, `node:http`), type imports included. */
export function packageImports(root: string): Map<string, string[]> {
  return new Map([...moduleSpecifiers(root)].map(([file, specs]) => [file, specs.filter((spec) => !spec.startsWith('.'))]));
}

/**
 * A layer rule for files under `from` (a top folder): either they may not import files under any of `notInto`,
 * or (a floor) they may import only their own folder and those in `onlyInto`.
 */
export type LayerRule = { from: string; why: string } & ({ notInto: readonly string[] } | { onlyInto: readonly string[] });

/** Whether `rule` refuses an import into the top folder `into`. */
function refuses(rule: LayerRule, into: string): boolean {
  return 'notInto' in rule ? rule.notInto.includes(into) : into !== rule.from && !rule.onlyInto.includes(into);
}

/** Every import that breaks a rule, as `file -> target (why)`. */
export function layerViolations(graph: ImportGraph, rules: readonly LayerRule[]): string[] {
  const top = (file: string) => file.split('/')[0];
  const out: string[] = [];
  for (const [file, targets] of graph)
    for (const rule of rules)
      if (top(file) === rule.from)
        for (const target of targets) if (refuses(rule, top(target))) out.push(`${file} -> ${target} (${rule.why})`);
  return out;
}
