// The grammar of propose_flow_change (docs/assistant.md "propose_flow_change"): plain instructions to typed edits, no model.
import { BRANCH_PHRASE_SOURCE } from './branch-words.js';
import { DURATION_PHRASE_SOURCE, parseDurationPhrase } from './duration-phrase.js';
import type { Audience, FlowInstruction, NewStepPhrase } from './flow-instruction.js';
import { PARAM_PHRASES } from './param-words.js';
import { cleanPhrase } from './phrase-text.js';

const BR = `(?<branch>${BRANCH_PHRASE_SOURCE})`;
const DUR = `(?<value>${DURATION_PHRASE_SOURCE})`;
/** Words that tie a branch to the step it leaves ("rejected at the fraud review"). */
const OF = String.raw`(?:of|at|by|from|in|on|for)`;
const SEND = String.raw`(?:send|route|move|direct|redirect|take|point|lead|forward)`;
/** Generic nouns after a branch word that name no step ("rejected orders"). */
const GENERIC_NOUNS = new Set(['order', 'orders', 'one', 'ones', 'branch', 'branches', 'path', 'paths', 'case', 'cases', 'outcome', 'outcomes', 'result', 'results', 'decision', 'decisions', 'request', 'requests', 'sale', 'sales', 'reorder', 'reorders', 'subscription', 'subscriptions', 'item', 'items']);
/** Verbs that may start what an insert adds ("on rejection notify sellers"). */
const NEW_STEP_VERBS = String.raw`(?:add|insert|notify|tell|email|alert|message|wait|pause|delay|hold|refund)\b`;

const re = (source: string): RegExp => new RegExp(`^${source}$`, 'i');

/** Politeness, a trailing full stop and a trailing "in the storefront flow" say nothing about the edit. */
export function normaliseInstruction(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '')
    .replace(/^(?:please|could you|can you|would you|i want to|i'd like to|let's|lets)\s+/i, '')
    .replace(/\s+please$/i, '')
    .replace(/\s+(?:in|on|of|for|from|to)\s+(?:the\s+)?(?:[\w-]+\s+){0,4}flow$/i, '')
    .replace(/\s+(?:in|on|of|for|from|to)\s+(?:the\s+)?tpl-[a-z0-9-]+$/i, '')
    .trim();
}

/** "the approval timeout" -> step "the approval", param "timeout"; "the timeout of the approval" likewise. */
function splitStepAndParam(words: string): { step: string; param: string | null } {
  const text = words.trim().replace(/['’]s\b/g, '');
  for (const param of PARAM_PHRASES) {
    const after = new RegExp(`^(?<step>.+?)\\s+${param}$`, 'i').exec(text);
    // "the delay" names a step, not the param "delay" of a step called "the".
    if (after?.groups && cleanPhrase(after.groups.step).length > 0) return { step: after.groups.step, param };
    const before = new RegExp(`^(?:the\\s+)?${param}\\s+(?:of|for|on)\\s+(?<step>.+)$`, 'i').exec(text);
    if (before?.groups) return { step: before.groups.step, param };
  }
  return { step: text, param: null };
}

const AUDIENCES: [RegExp, Audience][] = [
  [/\b(sellers?|vendors?|merchants?)\b/i, 'seller'],
  [/\b(buyers?|customers?|shoppers?|clients?)\b/i, 'customer'],
  [/\b(operations|ops|operators?|team|staff|support)\b/i, 'operations'],
];

/** "a 2 day delay", "a notification to sellers", "notify the buyer": the type phrase and what else it says. */
export function readNewStep(phrase: string): NewStepPhrase {
  let type = phrase.trim();
  let duration: string | null = null;
  const dur = new RegExp(`(?:\\s+(?:of|for|lasting)\\s+|\\s+|^)(?:up\\s+to\\s+)?(${DURATION_PHRASE_SOURCE})`, 'i').exec(type);
  if (dur) {
    duration = parseDurationPhrase(dur[1].replace(/-/g, ' '));
    type = `${type.slice(0, dur.index)} ${type.slice(dur.index + dur[0].length)}`;
  }
  const event = /\b([a-z][a-z0-9_]*\.[a-z][a-z0-9_.]*)\b/i.exec(type)?.[1] ?? null;
  if (event) type = type.replace(event, ' ').replace(/\s+(?:for|of)\s*$/i, '');
  let audience: Audience | null = null;
  for (const [pattern, who] of AUDIENCES) {
    const found = pattern.exec(type);
    if (found) {
      audience = who;
      // "to sellers", "for the buyer" or the bare word go: what is left names the type.
      type = type.replace(new RegExp(`(?:\\s+(?:to|for)\\s+(?:the\\s+|all\\s+)?|\\s+(?:the\\s+|all\\s+)?)?${found[0]}`, 'i'), ' ');
      break;
    }
  }
  return { type: type.replace(/\s+/g, ' ').trim(), duration, audience, event };
}

type Rule = (text: string) => FlowInstruction | null;

/** The step a reconnect names, from its explicit "of X" part or from a noun after the branch word. */
function sourceStep(groups: Record<string, string | undefined>): string | null {
  if (groups.step) return groups.step;
  const noun = groups.noun?.toLowerCase();
  return noun && !GENERIC_NOUNS.has(noun) ? noun : null;
}

const RULES: Rule[] = [
  // Params: "wait 3 days for sellers", "give sellers 3 days".
  (t) => {
    const m = re(String.raw`(?:wait|allow)\s+(?:up\s+to\s+|for\s+)?${DUR}\s+(?:for|on)\s+(?<step>.+)`).exec(t)?.groups;
    return m ? { kind: 'params', step: m.step, param: null, value: m.value } : null;
  },
  (t) => {
    const m = re(String.raw`(?:give|allow)\s+(?<step>.+?)\s+(?:up\s+to\s+)?${DUR}(?:\s+to\s+.+)?`).exec(t)?.groups;
    return m ? { kind: 'params', step: m.step, param: null, value: m.value } : null;
  },
  // Params: "make the approval timeout 1 day", "set the delay to 2h", "set the approval assignee to finance".
  (t) => {
    const m = re(String.raw`(?:set|make|change|update)\s+(?<x>.+?)\s+(?:to\s+|=\s*|be\s+|of\s+|into\s+)?${DUR}`).exec(t)?.groups;
    return m ? { kind: 'params', ...splitStepAndParam(m.x), value: m.value } : null;
  },
  (t) => {
    const m = re(String.raw`(?:set|make|change|update)\s+(?<x>.+?)\s+(?:to|=|be|into)\s+(?<value>.+)`).exec(t)?.groups;
    return m ? { kind: 'params', ...splitStepAndParam(m.x), value: m.value.replace(/^["']|["']$/g, '') } : null;
  },
  // Reconnect: "send rejected orders to cancel", "route escalated approvals at the fraud review to declined".
  (t) => {
    const m = re(String.raw`${SEND}\s+(?:all\s+)?(?:the\s+)?${BR}(?:\s+(?<noun>[a-z]+))??(?:\s+${OF}\s+(?<step>.+?))?\s+to\s+(?<target>.+)`).exec(t)?.groups;
    return m ? { kind: 'reconnect', branch: m.branch, step: sourceStep(m), target: m.target } : null;
  },
  // Reconnect: "send orders rejected by the fraud review to cancel".
  (t) => {
    const m = re(String.raw`${SEND}\s+(?:all\s+)?(?:the\s+)?(?:orders?|ones|cases)\s+(?:that\s+(?:are|were|get|got)\s+|which\s+(?:are|were)\s+)?${BR}(?:\s+${OF}\s+(?<step>.+?))?\s+to\s+(?<target>.+)`).exec(t)?.groups;
    return m ? { kind: 'reconnect', branch: m.branch, step: m.step ?? null, target: m.target } : null;
  },
  // Reconnect: "connect the rejected branch of the fraud review to cancel", "connect fraud review rejected to cancel".
  (t) => {
    const m = re(String.raw`(?:connect|link|wire|point)\s+(?:the\s+)?${BR}\s+(?:branch|path|edge|exit)\s+(?:of|from)\s+(?<step>.+?)\s+to\s+(?<target>.+)`).exec(t)?.groups;
    return m ? { kind: 'reconnect', branch: m.branch, step: m.step, target: m.target } : null;
  },
  (t) => {
    const m = re(String.raw`(?:connect|link|wire|point)\s+(?<step>.+?)(?:['’]s)?\s+${BR}(?:\s+(?:branch|path|edge|exit))?\s+to\s+(?<target>.+)`).exec(t)?.groups;
    return m ? { kind: 'reconnect', branch: m.branch, step: m.step, target: m.target } : null;
  },
  // Reconnect: "on rejection go to cancel", "when rejected at the fraud review, end as cancelled".
  (t) => {
    const m = re(String.raw`(?:on|when|if|upon)\s+(?:a\s+|an\s+)?(?:it\s+is\s+|it's\s+|the\s+order\s+is\s+)?${BR}(?:\s+${OF}\s+(?<step>.+?))?,?\s+(?:then\s+)?(?:go|goes|jump|continue|end|finish|(?:send|route|move)\s+(?:it|them|the\s+order))\s+(?:to|at|with|as|in)\s+(?<target>.+)`).exec(t)?.groups;
    return m ? { kind: 'reconnect', branch: m.branch, step: m.step ?? null, target: m.target } : null;
  },
  // Reconnect: "rejected orders go to cancel".
  (t) => {
    const m = re(String.raw`(?:the\s+)?${BR}(?:\s+(?<noun>[a-z]+))??(?:\s+${OF}\s+(?<step>.+?))?\s+(?:should\s+)?(?:go|goes|lead|leads|end|ends)\s+(?:to|at|in|as)\s+(?<target>.+)`).exec(t)?.groups;
    return m ? { kind: 'reconnect', branch: m.branch, step: sourceStep(m), target: m.target } : null;
  },
  // Remove: "remove the fraud check", "skip the fraud review step".
  (t) => {
    const m = re(String.raw`(?:remove|delete|drop|skip|take\s+out|get\s+rid\s+of|cut|eliminate)\s+(?<step>.+)`).exec(t)?.groups;
    return m ? { kind: 'remove', step: m.step } : null;
  },
  // Insert: "add an approval before capture", "add a fraud check after pricing", "add a notification after the approval on rejection".
  (t) => {
    const m = re(String.raw`(?:add|insert|put|place|include)\s+(?<what>.+?)\s+(?:right\s+|just\s+|directly\s+)?(?<where>before|after|ahead\s+of|following)\s+(?<step>.+?)(?:\s+(?:on|when|if|upon)\s+${BR})?`).exec(t)?.groups;
    if (!m) return null;
    const where = /^after|^following/i.test(m.where) ? 'after' : 'before';
    return { kind: 'insert', what: readNewStep(m.what), where, step: m.step, branch: m.branch ?? null };
  },
  // Insert on a branch: "on rejection notify sellers", "when rejected at the fraud review, notify the buyer".
  // (A comma or "then" ends the step phrase; else the first verb that starts a new step does.)
  ...[String.raw`(?:\s*,\s*|\s+then\s+)`, String.raw`\s+(?=${NEW_STEP_VERBS})`].map(
    (separator): Rule =>
      (t) => {
        const m = re(String.raw`(?:on|when|if|upon)\s+(?:a\s+|an\s+)?(?:it\s+is\s+|it's\s+|the\s+order\s+is\s+)?${BR}(?:\s+${OF}\s+(?<step>.+?))?${separator}(?:add\s+|insert\s+)?(?<what>.+)`).exec(t)?.groups;
        return m ? { kind: 'insert', what: readNewStep(m.what), where: 'after', step: m.step ?? null, branch: m.branch } : null;
      },
  ),
  // Insert on a branch, said the other way round: "notify sellers on rejection", "add a notification on timeout of the approval".
  (t) => {
    const m = re(String.raw`(?:add\s+|insert\s+)?(?<what>.+?)\s+(?:on|when|if|upon)\s+(?:a\s+|an\s+)?(?:it\s+is\s+|it's\s+)?${BR}(?:\s+${OF}\s+(?<step>.+))?`).exec(t)?.groups;
    return m ? { kind: 'insert', what: readNewStep(m.what), where: 'after', step: m.step ?? null, branch: m.branch } : null;
  },
];

/** The edit an instruction asks for, or null when no rule of the grammar reads it. */
export function parseFlowInstruction(text: string): FlowInstruction | null {
  const normalised = normaliseInstruction(text);
  for (const rule of RULES) {
    const instruction = rule(normalised);
    if (instruction) return instruction;
  }
  return null;
}
