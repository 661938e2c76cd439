// Node type `logic.branch`: takes `true` or `false` by a JSON condition over `order.*` and `vars.*`.
//
// Condition language (params.when), one of:
//   { path, op, value? }    compare the value at `path` ("order.total", "vars.fraud.score",
//                           "order.input.lines.0.sku") with `value`:
//     eq, ne                deep equality of JSON values (a missing value equals nothing but null)
//     gt, gte, lt, lte      both numbers or both strings, else false; order amounts are minor units
//     in                    `value` is a list; true when it contains the path's value
//     exists                the path holds a value other than null; `value: false` inverts
//   { all: [c, ...] }       every condition holds (at least one)
//   { any: [c, ...] }       some condition holds (at least one)
//   { not: c }              the condition does not hold
// Example: { all: [ { path: "order.total", op: "gt", value: 100000 },
//                   { not: { path: "vars.vip", op: "eq", value: true } } ] }
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { readPath } from '../engine/template.js';

export const CONDITION_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'exists'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export type Condition =
  | { path: string; op: ConditionOp; value?: unknown }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

/** A path starts at `order` or `vars` and names at least one key below it. */
const CONDITION_PATH = /^(order|vars)(\.[A-Za-z0-9_-]+)+$/;
/** Nesting bound: keeps checking and evaluation away from deep recursion on hostile input. */
const MAX_DEPTH = 16;

interface ConditionIssue {
  path: (string | number)[];
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a condition's shape; each problem carries its path inside the condition. */
export function checkCondition(value: unknown, at: (string | number)[] = [], depth = 0): ConditionIssue[] {
  if (depth > MAX_DEPTH) return [{ path: at, message: `Conditions nest at most ${MAX_DEPTH} levels` }];
  if (!isObject(value)) {
    return [{ path: at, message: 'Expected a condition object: { path, op, value }, { all }, { any } or { not }' }];
  }
  const keys = Object.keys(value);
  for (const group of ['all', 'any'] as const) {
    if (group in value) {
      if (keys.length !== 1) return [{ path: at, message: `A "${group}" condition has no other keys` }];
      const list = value[group];
      if (!Array.isArray(list) || list.length === 0) return [{ path: [...at, group], message: `"${group}" needs a non-empty list of conditions` }];
      return list.flatMap((item, i) => checkCondition(item, [...at, group, i], depth + 1));
    }
  }
  if ('not' in value) {
    if (keys.length !== 1) return [{ path: at, message: 'A "not" condition has no other keys' }];
    return checkCondition(value.not, [...at, 'not'], depth + 1);
  }
  const extra = keys.filter((k) => k !== 'path' && k !== 'op' && k !== 'value');
  if (extra.length > 0) return [{ path: at, message: `Unknown condition keys: ${extra.join(', ')}` }];
  const issues: ConditionIssue[] = [];
  const { path, op } = value;
  if (typeof path !== 'string' || !CONDITION_PATH.test(path)) {
    issues.push({ path: [...at, 'path'], message: 'Expected a path starting with "order." or "vars.", e.g. "vars.total"' });
  }
  if (typeof op !== 'string' || !(CONDITION_OPS as readonly string[]).includes(op)) {
    issues.push({ path: [...at, 'op'], message: `Expected an operator: one of ${CONDITION_OPS.join(', ')}` });
    return issues;
  }
  const v = value.value;
  if (op === 'in' && !Array.isArray(v)) issues.push({ path: [...at, 'value'], message: '"in" needs a list as value' });
  if ((op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') && typeof v !== 'number' && typeof v !== 'string') {
    issues.push({ path: [...at, 'value'], message: `"${op}" needs a number or a string as value` });
  }
  if (op === 'exists' && v !== undefined && typeof v !== 'boolean') {
    issues.push({ path: [...at, 'value'], message: '"exists" takes no value, or true/false' });
  }
  if ((op === 'eq' || op === 'ne') && !('value' in value)) {
    issues.push({ path: [...at, 'value'], message: `"${op}" needs a value` });
  }
  return issues;
}

/** zod schema of a condition with human messages at the exact path. */
export const conditionSchema: z.ZodType<Condition> = z.unknown().transform((value, ctx) => {
  const issues = checkCondition(value);
  for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return issues.length > 0 ? z.NEVER : (value as Condition);
});

/** Structural equality of JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function compare(actual: unknown, expected: unknown): number | null {
  if (typeof actual === 'number' && typeof expected === 'number' && Number.isFinite(actual) && Number.isFinite(expected)) return actual - expected;
  if (typeof actual === 'string' && typeof expected === 'string') return actual < expected ? -1 : actual > expected ? 1 : 0;
  return null;
}

/** Evaluates a (checked) condition over a scope `{ order, vars }`. */
export function evaluateCondition(condition: Condition, scope: { order: unknown; vars: unknown }): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(c, scope));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(c, scope));
  if ('not' in condition) return !evaluateCondition(condition.not, scope);
  const actual = readPath(scope, condition.path);
  const expected = condition.value;
  switch (condition.op) {
    case 'eq':
      return jsonEqual(actual ?? null, expected);
    case 'ne':
      return !jsonEqual(actual ?? null, expected);
    case 'in':
      return Array.isArray(expected) && expected.some((item) => jsonEqual(actual ?? null, item));
    case 'exists': {
      const present = actual !== undefined && actual !== null;
      return expected === false ? !present : present;
    }
    default: {
      const diff = compare(actual, expected);
      if (diff === null) return false;
      if (condition.op === 'gt') return diff > 0;
      if (condition.op === 'gte') return diff >= 0;
      if (condition.op === 'lt') return diff < 0;
      return diff <= 0;
    }
  }
}

export const logicBranchParams = z.strictObject({ when: conditionSchema });

export type LogicBranchParams = z.infer<typeof logicBranchParams>;

export const logicBranch: NodeTypeDef<LogicBranchParams> = {
  type: 'logic.branch',
  kind: 'logic',
  label: 'Branch',
  description: 'Takes the true or false branch by a condition on order fields and run variables.',
  params: logicBranchParams,
  branches: () => ['true', 'false'],
  defaultBranch: null,
  outputs: '{ result } (boolean).',
  run(ctx): StepResult {
    const result = evaluateCondition(ctx.params.when, { order: ctx.order, vars: ctx.vars });
    return { branch: result ? 'true' : 'false', output: { result }, summary: `Condition ${result ? 'true' : 'false'}` };
  },
};
