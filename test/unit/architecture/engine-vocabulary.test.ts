// Issue 29's rule that the order's business side lives with orders: the engine's code names no commerce column or fact
// (comments aside); it carries the host's facts (OrderSubject) without reading them. Checked on src/ and on planted trees.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { plantedTrees } from '../../support/planted-trees.js';

/** The commerce order's facts and columns, as runs of lower-case words (`fxRate` and `fx_rate` are both `fx rate`). */
const COMMERCE_TERMS = ['currency', 'fx rate', 'subtotal', 'tax minor', 'total minor', 'return of', 'customer id', 'contact email', 'external id', 'restarted from'];

/** The lower-case words of an identifier or a text: camelCase, snake_case and spaces all split. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The commerce terms in a file's code: identifiers and string or template text, not comments. */
function commerceTermsIn(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const found = new Set<string>();
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const code =
      kind === ts.SyntaxKind.Identifier ||
      kind === ts.SyntaxKind.StringLiteral ||
      kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      kind === ts.SyntaxKind.TemplateHead ||
      kind === ts.SyntaxKind.TemplateMiddle ||
      kind === ts.SyntaxKind.TemplateTail;
    if (!code) continue;
    const line = ` ${words(scanner.getTokenValue()).join(' ')} `;
    for (const term of COMMERCE_TERMS) if (line.includes(` ${term} `)) found.add(term);
  }
  return [...found];
}

/** `file: term, term` for every file under `root`/engine whose code names a commerce term. */
function engineCommerceTerms(root: string): string[] {
  const engine = path.join(root, 'engine');
  const out: string[] = [];
  for (const entry of fs.readdirSync(engine, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!entry.endsWith('.ts')) continue;
    const terms = commerceTermsIn(fs.readFileSync(path.join(engine, entry), 'utf8'));
    if (terms.length) out.push(`engine/${entry.split(path.sep).join('/')}: ${terms.join(', ')}`);
  }
  return out;
}

const trees = plantedTrees('oo-engine-words-');
afterAll(() => trees.removeAll());

describe('the engine names no commerce column or fact (the order’s business side is the host’s OrderSubject)', () => {
  it('fails on a planted engine file that reads a commerce fact, names a commerce column in SQL or a template', () => {
    const root = trees.plant({
      'engine/run/step-view.ts': 'export const view = (o: { fxRate: number }) => o.fxRate;\n',
      'engine/runtime/slice-write.ts': "export const sql = 'UPDATE orders SET subtotal_minor = $1';\nexport const t = (x: string) => `SET return_of = ${x}`;\n",
      'engine/run/decide.ts': "export const d = (order: Record<string, unknown>) => order['currency'];\n",
    });
    expect(engineCommerceTerms(root)).toEqual(['engine/run/decide.ts: currency', 'engine/run/step-view.ts: fx rate', 'engine/runtime/slice-write.ts: subtotal, return of']);
  });

  it('keeps quiet on comments, on words that only contain a term (concurrency) and on the run’s own fields', () => {
    const root = trees.plant({
      'engine/run/decide.ts': '// a step may re-total the order (subtotal, currency) through its port\nexport const concurrency = 2;\nexport const run = { generation: 1, stepSeq: 0, status: "queued" };\n',
    });
    expect(engineCommerceTerms(root)).toEqual([]);
  });

  it('src/engine holds none', () => {
    expect(engineCommerceTerms(path.resolve('src'))).toEqual([]);
  });
});
