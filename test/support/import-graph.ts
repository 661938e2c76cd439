// The import graph of a TypeScript tree (type imports included), its cycles, and layer-rule violations.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** file -> the files of the tree it imports (relative specifiers resolved; packages left out). */
export type ImportGraph = Map<string, string[]>;

/** Whether a declaration imports or re-exports types only (`import type`, `export type`, or every named binding `type`). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/**
 * Every .ts file under `root` (relative, forward slashes) with the module specifiers of its imports and re-exports;
 * with `runtimeOnly`, only those that load a module when the file runs (type-only imports left out).
 */
function moduleSpecifiers(root: string, runtimeOnly = false): Map<string, string[]> {
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(path.sep).join('/'));
  const out = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest);
    const specs: string[] = [];
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
      if (runtimeOnly && typeOnly(node)) continue;
      const spec = node.moduleSpecifier;
      if (spec && ts.isStringLiteral(spec)) specs.push(spec.text);
    }
    out.set(file, specs);
  }
  return out;
}

/** Reads every .ts file under `root` (paths relative to `root`, with forward slashes); `runtimeOnly` leaves type imports out. */
export function importGraph(root: string, runtimeOnly = false): ImportGraph {
  const specifiers = moduleSpecifiers(root, runtimeOnly);
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

/** file -> the packages it loads when it runs (type-only imports left out). */
export function runtimePackageImports(root: string): Map<string, string[]> {
  return new Map([...moduleSpecifiers(root, true)].map(([file, specs]) => [file, specs.filter((spec) => !spec.startsWith('.'))]));
}

/**
 * The shortest chain of runtime imports from `start` to a file that `isTarget` picks (start and target
 * included), or null when none is reachable.
 */
export function importChain(graph: ImportGraph, start: string, isTarget: (file: string) => boolean): string[] | null {
  const previous = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (isTarget(file)) {
      const chain: string[] = [];
      for (let at: string | null = file; at !== null; at = previous.get(at) ?? null) chain.unshift(at);
      return chain;
    }
    for (const next of graph.get(file) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, file);
      queue.push(next);
    }
  }
  return null;
}
