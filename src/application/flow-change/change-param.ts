// Params: set one param of a step ("make the approval timeout 1 day"), the value read as its schema wants (duration, number, choice).
import { z } from 'zod';
import type { Catalogue } from '../../engine/catalogue.js';
import { durationSchema } from '../../platform/duration.js';
import { namedNodes, nodeName, parsedParams, type DraftGraph, type DraftNode } from './draft-graph.js';
import { parseDurationPhrase } from './duration-phrase.js';
import { cannotChange } from './flow-change-refusals.js';
import type { FlowInstruction } from './flow-instruction.js';
import { PARAM_SYNONYMS } from './param-words.js';
import { cleanPhrase, wordsOf } from './phrase-text.js';
import { requireStep } from './step-matcher.js';

type Params = Extract<FlowInstruction, { kind: 'params' }>;

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20 };

/** The param schemas of a node type, by key (empty for types whose params are not one object). */
function paramShape(type: string, catalogue: Catalogue): Record<string, z.ZodType> {
  const schema = catalogue.get(type)?.params;
  return schema instanceof z.ZodObject ? (schema.shape) : {};
}

/** A param's schema without its default or optional wrapper. */
function inner(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  return s;
}

const isDurationParam = (schema: z.ZodType): boolean => inner(schema) === durationSchema;

/** The keys of a type's params that hold a duration (timeout, duration). */
function durationKeys(type: string, catalogue: Catalogue): string[] {
  return Object.entries(paramShape(type, catalogue)).filter(([, s]) => isDurationParam(s)).map(([k]) => k);
}

/** The param key a phrase names on a type: the key in words, or one of its synonyms. */
function paramKey(phrase: string, type: string, catalogue: Catalogue): string | null {
  const text = cleanPhrase(phrase);
  const keys = Object.keys(paramShape(type, catalogue));
  return keys.find((k) => wordsOf(k) === text) ?? keys.find((k) => (PARAM_SYNONYMS[k] ?? []).includes(text)) ?? null;
}

/** The value as the param's schema wants it; a refusal when it cannot be read so. */
function coerce(value: string, key: string, schema: z.ZodType, node: DraftNode): unknown {
  const s = inner(schema);
  if (isDurationParam(schema)) {
    const duration = parseDurationPhrase(value.replace(/-/g, ' '));
    if (!duration) throw cannotChange(`"${value}" is not a duration for ${key} of ${nodeName(node)}; say e.g. "3 days", "2h" or "90 minutes".`);
    return duration;
  }
  if (s instanceof z.ZodNumber) {
    const text = value.trim().toLowerCase().replace(/^\$/, '').replace(/,/g, '');
    const n = /^-?\d+(\.\d+)?/.test(text) ? Number.parseFloat(text) : NUMBER_WORDS[text];
    if (n === undefined || !Number.isFinite(n)) throw cannotChange(`"${value}" is not a number for ${key} of ${nodeName(node)}.`);
    return n;
  }
  if (s instanceof z.ZodEnum) {
    const options = (s.options as readonly unknown[]).map(String);
    const text = cleanPhrase(value).replace(/ /g, '_');
    const synonyms: Record<string, string> = { sellers: 'seller', buyer: 'customer', buyers: 'customer', customers: 'customer', ops: 'operations', operators: 'operations' };
    const found = options.find((o) => o === text) ?? options.find((o) => o === synonyms[text]) ?? options.find((o) => o.startsWith(text) || text.startsWith(o));
    if (!found) throw cannotChange(`"${value}" is not one of the choices for ${key} of ${nodeName(node)}: ${options.join(', ')}.`);
    return found;
  }
  return value;
}

/** Applies a param change; returns the sentences saying what changed. */
export function changeParam(graph: DraftGraph, ins: Params, catalogue: Catalogue): string[] {
  const all = namedNodes(graph);
  // Without a param named, the step must have a duration: look among those first ("wait 3 days for sellers").
  const withDuration = all.filter((n) => durationKeys(n.type, catalogue).length > 0);
  let node: DraftNode;
  if (ins.param === null && withDuration.length > 0) {
    try {
      node = requireStep(ins.step, withDuration, catalogue, 'step with a duration');
    } catch {
      node = requireStep(ins.step, all, catalogue);
    }
  } else node = requireStep(ins.step, all, catalogue);

  const shape = paramShape(node.type, catalogue);
  let key: string | null;
  if (ins.param === null) {
    const keys = durationKeys(node.type, catalogue);
    if (keys.length === 0) throw cannotChange(`${nodeName(node)} (${node.type}) has no duration to set; its params: ${Object.keys(shape).join(', ') || 'none'}.`);
    key = keys[0]!;
  } else {
    key = paramKey(ins.param, node.type, catalogue);
    // "the delay" of a delay step means its duration, "the wait" its timeout or duration.
    if (key === null && (PARAM_SYNONYMS.timeout.includes(cleanPhrase(ins.param)) || PARAM_SYNONYMS.duration.includes(cleanPhrase(ins.param)))) {
      key = durationKeys(node.type, catalogue)[0] ?? null;
    }
    if (key === null) throw cannotChange(`${nodeName(node)} (${node.type}) has no param "${ins.param}"; its params: ${Object.keys(shape).join(', ') || 'none'}.`);
  }
  const value = coerce(ins.value, key, shape[key], node);
  const params = { ...(node.params ?? {}) };
  const old = params[key] ?? (parsedParams(node, catalogue) as Record<string, unknown> | null)?.[key];
  if (JSON.stringify(old) === JSON.stringify(value)) throw cannotChange(`${key} of ${nodeName(node)} is already ${JSON.stringify(value)}.`);
  params[key] = value;
  node.params = params;
  const extra =
    key === 'duration' && typeof params.durationFrom === 'string'
      ? ` (${params.durationFrom} still wins over it when the run sets it, as the flow says)`
      : '';
  return [`Set ${key} of ${nodeName(node)} to ${JSON.stringify(value)}${old === undefined ? '' : ` (was ${JSON.stringify(old)})`}${extra}.`];
}
