// The assistant without a model: read a question, call the read tools as the caller, answer in sentences; writes are proposals.
import type { OperationRegistry } from '../operation-registry.js';
import type { OperationInput, OperationName } from '../operation-types.js';
import type { CallContext } from '../operation.js';
import type { Principal } from '../../auth/principal.js';
import { roleAtLeast } from '../../auth/roles.js';
import { DomainError } from '../../domain/errors.js';
import { INTENTS, matchIntent, type IntentName } from './chat-intents.js';
import { instructionOf } from './instruction-text.js';
import { readSlots, type QuestionSlots } from './question-slots.js';
import { attentionAnswer, findOrdersAnswer, flowAnswer, flowsAnswer, orderStateAnswer, productsAnswer, when } from './chat-answers.js';

/** What a conversation remembers between turns (A2A keeps it per contextId): the last order and the last search. */
export interface ChatContext {
  lastOrderId?: string;
  lastQuery?: Record<string, unknown>;
}

export interface ChatAnswer {
  text: string;
  /** The grammar's intent, 'help' when nothing fit, 'model' when the optional model answered. */
  intent: IntentName | 'help' | 'model';
  tool: string | null;
  /** The tool's output the answer rests on. */
  data: unknown;
  /** A write waiting for `{ confirm: true }`: the skill and input that will run, as the caller. */
  proposal: { skill: string; input: Record<string, unknown> } | null;
  summary: string | null;
  context: ChatContext;
}

export interface ChatDeps {
  registry: OperationRegistry;
  baseUrl: () => string;
  now: () => number;
}

/** A search's value in words: the search has passed find_orders' input schema, so each is a string or a number. */
const word = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
const time = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The filters of a search in words, for the answer ("status waiting, model marketplace, since …"). */
function describe(q: Record<string, unknown>): string {
  const parts: string[] = [];
  if (q.status) parts.push(`status ${word(q.status).replace('_', ' ')}`);
  if (q.model) parts.push(`model ${word(q.model)}`);
  if (q.channel) parts.push(`channel ${word(q.channel)}`);
  if (q.minTotalUsd !== undefined) parts.push(`total at least ${word(q.minTotalUsd)} USD`);
  if (q.maxTotalUsd !== undefined) parts.push(`total at most ${word(q.maxTotalUsd)} USD`);
  if (q.createdAfter !== undefined) parts.push(`created since ${when(time(q.createdAfter))}`);
  if (q.createdBefore !== undefined) parts.push(`created before ${when(time(q.createdBefore))}`);
  return parts.join(', ');
}

function searchOf(slots: QuestionSlots): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  for (const k of ['status', 'model', 'channel', 'minTotalUsd', 'maxTotalUsd', 'createdAfter', 'createdBefore'] as const) if (slots[k] !== undefined) q[k] = slots[k];
  return q;
}

/**
 * How many units of `sku` a return question names: "2 MUG-1", "2 x MUG-1", "2 units of MUG-1" or "MUG-1 x 2"; 1 when
 * none. The SKU slot holds only letters, digits and dashes, and every repeat is bounded (the question is caller text).
 */
export function returnQty(text: string, sku: string): number {
  const name = sku.replace(/-/g, '\\-');
  const before = new RegExp(`(?:^|[^\\w-])(\\d{1,6})\\s{0,3}(?:(?:x|×|units?|pieces?|pcs)\\s{0,3}(?:of\\s{1,3})?)?${name}(?![\\w-])`, 'i').exec(text);
  const after = new RegExp(`(?:^|[^\\w-])${name}\\s{0,3}(?:x|×)\\s{0,3}(\\d{1,6})(?!\\d)`, 'i').exec(text);
  const qty = Number(before?.[1] ?? after?.[1] ?? 1);
  return qty >= 1 ? qty : 1;
}

/** What can be asked, with the writes the caller's role may confirm. */
function help(caller: Principal): string {
  const lines = Object.values(INTENTS)
    .filter((i) => !i.write || roleAtLeast(caller.role, i.role))
    .map((i) => `- ${i.example}`);
  return `I did not understand that. You can ask, for example:\n${lines.join('\n')}`;
}

export async function answerQuestion(deps: ChatDeps, caller: Principal, input: { text: string; context?: ChatContext }, call: CallContext): Promise<ChatAnswer> {
  const context: ChatContext = { ...(input.context ?? {}) };
  const { flows } = await deps.registry.call('list_flows', caller, {}, call);
  const slots = readSlots(input.text, { now: deps.now(), flows });
  const intent = matchIntent(input.text, slots, context.lastOrderId !== undefined);
  const orderId = slots.orderId ?? (slots.refersBack ? context.lastOrderId : undefined);
  const base = deps.baseUrl();
  // A read tool as the caller, typed by its name (the registry still checks the role and the input).
  const run = <N extends OperationName>(tool: N, toolInput: OperationInput<N>) => deps.registry.call(tool, caller, toolInput, call);
  const answer = (partial: Omit<ChatAnswer, 'context' | 'proposal' | 'summary'> & Partial<Pick<ChatAnswer, 'proposal' | 'summary'>>): ChatAnswer => ({
    proposal: null,
    summary: null,
    ...partial,
    context,
  });
  const propose = (name: IntentName, skill: string, toolInput: Record<string, unknown>, summary: string): ChatAnswer => {
    const needs = INTENTS[name].role;
    const note = roleAtLeast(caller.role, needs) ? '' : ` This needs the ${needs} role: a confirmation as ${caller.role} will be refused.`;
    return answer({ text: `${summary} Reply { "confirm": true } to do it, or { "confirm": false } to drop it.${note}`, intent: name, tool: skill, data: null, proposal: { skill, input: toolInput }, summary });
  };

  switch (intent) {
    case null:
      return answer({ text: help(caller), intent: 'help', tool: null, data: null });
    case 'needs_attention': {
      const out = await run('needs_attention', {});
      return answer({ text: attentionAnswer(base, out), intent, tool: 'needs_attention', data: out });
    }
    case 'order_state': {
      const out = await run('get_order', { orderId: orderId! });
      context.lastOrderId = out.orderId;
      return answer({ text: orderStateAnswer(base, out), intent, tool: 'get_order', data: out });
    }
    case 'low_stock': {
      const out = await run('find_products', slots.sku ? { sku: slots.sku } : { belowReorderPoint: true });
      return answer({ text: productsAnswer(out, slots.sku), intent, tool: 'find_products', data: out });
    }
    case 'flows': {
      if (slots.flowId) {
        const out = await run('get_flow', { flowId: slots.flowId });
        return answer({ text: flowAnswer(base, out), intent, tool: 'get_flow', data: out });
      }
      const out = await run('list_flows', {});
      return answer({ text: flowsAnswer(out), intent, tool: 'list_flows', data: out });
    }
    case 'find_orders': {
      // A follow-up ("and the rejected ones?") keeps the last search and changes what it names.
      const followUp = /^\s*(and|what about|how about|also)\b/i.test(input.text) && context.lastQuery;
      const query = { ...(followUp ? context.lastQuery : {}), ...searchOf(slots), limit: 20 };
      // The remembered search is the conversation's (wire) record: find_orders' schema is its check.
      const out = await deps.registry.callRaw('find_orders', caller, query, call);
      context.lastQuery = query;
      if (out.count === 1) context.lastOrderId = out.orders[0].id;
      return answer({ text: findOrdersAnswer(base, out, describe(query)), intent, tool: 'find_orders', data: out });
    }
    case 'approve':
    case 'reject_approval': {
      const brief = await run('get_order', { orderId: orderId! });
      context.lastOrderId = brief.orderId;
      const approvals = brief.waits.filter((w) => w.kind === 'approval');
      if (approvals.length === 0) return answer({ text: `Order ${brief.orderId} is not waiting for an approval (it is ${brief.status.replace('_', ' ')}).`, intent, tool: 'get_order', data: brief });
      const w = approvals[0];
      const decision = intent === 'approve' ? 'approved' : 'rejected';
      const leads = w.leadsTo[decision] ? ` (${decision} leads to ${w.leadsTo[decision]})` : '';
      return propose(intent, 'decide_approval', { orderId: brief.orderId, nodeId: w.nodeId, decision }, `${intent === 'approve' ? 'Approve' : 'Reject'} ${w.title ?? w.label} on order ${brief.orderId}${leads}?`);
    }
    case 'cancel_order': {
      const brief = await run('get_order', { orderId: orderId! });
      context.lastOrderId = brief.orderId;
      return propose(intent, 'cancel_order', { orderId: brief.orderId }, `Cancel order ${brief.orderId} (now ${brief.status.replace('_', ' ')})? Its completed steps are undone; captured money is not refunded.`);
    }
    case 'start_return': {
      const brief = await run('get_order', { orderId: orderId! });
      context.lastOrderId = brief.orderId;
      const qty = returnQty(input.text, slots.sku!);
      return propose(
        intent,
        'start_return',
        { orderId: brief.orderId, lines: [{ sku: slots.sku!, qty }] },
        `Start a return of ${qty} × ${slots.sku} from order ${brief.orderId}? It waits for the goods (return.received), then refunds their share of the order's total and restocks them.`,
      );
    }
    case 'retry_hold':
    case 'rollback_hold': {
      const brief = await run('get_order', { orderId: orderId! });
      context.lastOrderId = brief.orderId;
      const held = brief.holds[0];
      if (!held) return answer({ text: `Order ${brief.orderId} has no held step (it is ${brief.status.replace('_', ' ')}).`, intent, tool: 'get_order', data: brief });
      const action = intent === 'retry_hold' ? 'retry' : 'rollback';
      const what = action === 'retry' ? `Retry ${held.label} on order ${brief.orderId} (${held.title})? The same run goes on with the same Idempotency-Key.` : `Roll back order ${brief.orderId} from its held step ${held.label} (${held.title})? Its completed steps are undone.`;
      return propose(intent, 'resolve_hold', { orderId: brief.orderId, nodeId: held.nodeId, action }, what);
    }
    case 'deliver_event': {
      context.lastOrderId = orderId;
      return propose(intent, 'deliver_event', { orderId: orderId!, event: slots.event! }, `Deliver the event ${slots.event} to order ${orderId}?`);
    }
    case 'publish_flow': {
      if (!slots.flowId) return answer({ text: `Which flow? ${flowsAnswer({ flows })}`, intent, tool: 'list_flows', data: { flows } });
      const flow = await run('get_flow', { flowId: slots.flowId });
      if (flow.draft.problems.length) return answer({ text: `The draft of ${flow.flow.name} cannot be published: ${flow.draft.problems.map((p) => p.message).join('; ')}.`, intent, tool: 'get_flow', data: flow });
      return propose(intent, 'publish_flow', { flowId: slots.flowId }, `Publish the draft of ${flow.flow.name} (${slots.flowId}) as version ${(flow.flow.publishedVersion ?? 0) + 1}?`);
    }
    case 'migrate_orders': {
      // "from version 1 to version 2", "v1 to v2": the first number is the source, a second one the target (default the latest).
      const [from, to] = [...input.text.matchAll(/\bv(?:ersion)?\s*(\d+)/gi)].map((m) => Number(m[1]));
      const target = to === undefined ? 'the latest version' : `version ${to}`;
      return propose(
        intent,
        'migrate_orders',
        { flowId: slots.flowId!, fromVersion: from, ...(to === undefined ? {} : { toVersion: to }) },
        `Move the live orders of ${slots.flowId} from version ${from} to ${target}? Each moves alone, keeping its waits, deadlines and approvals; an order that cannot move stays, with the reason in the batch.`,
      );
    }
    case 'flow_change': {
      if (!roleAtLeast(caller.role, 'operator'))
        return answer({ text: 'Drafting flow changes needs the operator role.', intent, tool: null, data: null });
      // The instruction is the question without the flow's name: "add an approval before capture".
      const instruction = instructionOf(input.text);
      try {
        const out = await run('propose_flow_change', { flowId: slots.flowId!, instruction });
        const problems = out.problems.length ? ` The changed draft has ${out.problems.length} problem${out.problems.length === 1 ? '' : 's'}: ${out.problems.map((p) => p.message).join('; ')}.` : ' The changed draft validates.';
        return answer({ text: `${out.summary}${problems} Nothing was saved: edit the draft at ${base}/flows/${out.flowId}/edit to keep it.`, intent, tool: 'propose_flow_change', data: out });
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'invalid_input') return answer({ text: err.message, intent, tool: 'propose_flow_change', data: null });
        throw err;
      }
    }
    case 'run_stock_review':
      return propose(intent, 'run_stock_review', {}, 'Run the stock review now? It starts a reorder for every first-party SKU at or below its reorder point without an open reorder.');
  }
}

