// The typed slots of a question: order id, status, model, channel, amount bounds in USD, dates, SKU, flow, event.
import Fuse from 'fuse.js';
import { ORDER_CHANNELS, ORDER_MODELS } from '../../domain/order-input-schema.js';
import { readDateBounds } from './question-dates.js';
import { hasWord, normalise, tokens } from './question-words.js';

export type StatusSlot = 'queued' | 'running' | 'waiting' | 'completed' | 'declined' | 'cancelled' | 'failed' | 'rolled_back';

export interface QuestionSlots {
  orderId?: string;
  status?: StatusSlot;
  model?: (typeof ORDER_MODELS)[number];
  channel?: (typeof ORDER_CHANNELS)[number];
  minTotalUsd?: number;
  maxTotalUsd?: number;
  createdAfter?: number;
  createdBefore?: number;
  sku?: string;
  flowId?: string;
  /** A business event name (`payment.received`). */
  event?: string;
  /** The question points back at the last order ("it", "that order"). */
  refersBack: boolean;
}

/** Words for each status, first the ones that name it best. "Rejected" reads as declined (a decision said no). */
const STATUS_WORDS: [StatusSlot, string[]][] = [
  ['rolled_back', ['rolled back', 'rolled-back', 'rollback']],
  ['waiting', ['waiting', 'stuck', 'pending', 'paused', 'on hold', 'open']],
  ['failed', ['failed', 'failing', 'broken', 'errored']],
  ['completed', ['completed', 'complete', 'done', 'finished', 'fulfilled']],
  ['cancelled', ['cancelled', 'canceled']],
  ['declined', ['declined', 'rejected', 'refused']],
  ['running', ['running', 'in progress', 'processing']],
  ['queued', ['queued']],
];

const MODEL_WORDS: Record<string, (typeof ORDER_MODELS)[number]> = { 'market place': 'marketplace', wholesale: 'b2b', business: 'b2b', consumer: 'b2c', 'direct to consumer': 'd2c', reorder: 'replenishment', reorders: 'replenishment', purchase: 'procurement' };

/**
 * fuse.js compares at most this many characters against the flows' names: its cost grows with the pattern and the
 * number of flows, and a flow name is no longer (a 4,000-character question must not cost a search per character).
 */
const FLOW_QUERY_CHARS = 200;

export interface SlotContext {
  /** Now, for relative dates ("since Monday"). */
  now: number;
  /** Flows to match names against. */
  flows: { id: string; name: string }[];
}

function statusOf(text: string, toks: string[]): StatusSlot | undefined {
  for (const [status, words] of STATUS_WORDS)
    for (const w of words) if (w.includes(' ') ? text.includes(w) : hasWord(toks, w)) return status;
  return undefined;
}

/** "over $500", "above 100 usd", "more than 20", "under 50", "between 10 and 20". */
function amounts(text: string): { min?: number; max?: number } {
  const num = String.raw`\$?\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(?:usd|dollars|\$)?`;
  const between = new RegExp(String.raw`between\s+${num}\s+and\s+${num}`).exec(text);
  if (between) return { min: Number(between[1].replace(/,/g, '')), max: Number(between[2].replace(/,/g, '')) };
  const out: { min?: number; max?: number } = {};
  const min = new RegExp(String.raw`(?:over|above|more than|greater than|at least|bigger than|exceeding|>=?)\s*${num}`).exec(text);
  const max = new RegExp(String.raw`(?:under|below|less than|at most|smaller than|<=?)\s*${num}`).exec(text);
  if (min) out.min = Number(min[1].replace(/,/g, ''));
  if (max) out.max = Number(max[1].replace(/,/g, ''));
  return out;
}

export function readSlots(raw: string, ctx: SlotContext): QuestionSlots {
  const text = normalise(raw);
  const toks = tokens(raw);
  const slots: QuestionSlots = { refersBack: /\b(it|that one|that order|this order|the order|same order)\b/.test(text) };
  const orderId = /\bord_[A-Za-z0-9]+\b/.exec(raw);
  if (orderId) slots.orderId = orderId[0];
  slots.status = statusOf(text, toks);
  for (const m of ORDER_MODELS) if (hasWord(toks, m)) slots.model = m;
  for (const [w, m] of Object.entries(MODEL_WORDS)) if (!slots.model && text.includes(w)) slots.model = m;
  for (const c of ORDER_CHANNELS)
    if (c !== 'marketplace' && new RegExp(String.raw`\b(via|from|on|through|channel)\s+(the\s+)?${c}\b|\b${c}\s+channel\b`).test(text)) slots.channel = c;
  const bounds = amounts(text);
  if (bounds.min !== undefined) slots.minTotalUsd = bounds.min;
  if (bounds.max !== undefined) slots.maxTotalUsd = bounds.max;
  const when = readDateBounds(raw, ctx.now);
  if (when.after !== undefined) slots.createdAfter = when.after;
  if (when.before !== undefined) slots.createdBefore = when.before;
  const sku = /\b[A-Z][A-Z0-9]{1,}(?:-[A-Z0-9]+)+\b/.exec(raw);
  if (sku) slots.sku = sku[0];
  const event = /\b([a-z]+(?:[._][a-z]+)+)\b/.exec(raw.replace(/\bord_[A-Za-z0-9]+\b/g, ''));
  if (event && !/^tpl[._-]/.test(event[1])) slots.event = event[1];
  const flowMention = /\b(?:flow|flows|workflow)\b/.test(text) || /\btpl-[a-z-]+\b/.test(text);
  if (flowMention && ctx.flows.length) {
    const exact = ctx.flows.find((f) => text.includes(f.id));
    // The words right before "flow" name it best: "the storefront flow", "in the marketplace order flow".
    const named = /\b(?:the\s+)?([a-z0-9-]+(?:\s+[a-z0-9-]+)?)\s+(?:flow|workflow)\b/.exec(text)?.[1].replace(/^(the|a|an|in|of|to|from|for)\s+/, '');
    const byName = named ? new Fuse(ctx.flows, { keys: ['name', 'id'], threshold: 0.4, ignoreLocation: true }).search(named.slice(0, FLOW_QUERY_CHARS))[0] : undefined;
    if (exact) slots.flowId = exact.id;
    else if (byName) slots.flowId = byName.item.id;
    else {
      const query = text
        .replace(/\b(the|a|an|flow|flows|workflow|workflows|show|me|list|all|there|are|which|what|is|in|of|steps|publish|draft|do|we|have|any|our|available|tell|about)\b/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      const hit = query.length >= 3 ? new Fuse(ctx.flows, { keys: ['name', 'id'], threshold: 0.3, ignoreLocation: true }).search(query.slice(0, FLOW_QUERY_CHARS))[0] : undefined;
      if (hit) slots.flowId = hit.item.id;
    }
  }
  return slots;
}
