// The intents the assistant understands (docs/assistant.md): each a test on the words and slots, and the tool it calls.
import type { Role } from '../../auth/roles.js';
import { hasWord, normalise, tokens } from './question-words.js';
import type { QuestionSlots } from './question-slots.js';

export type IntentName =
  | 'approve'
  | 'reject_approval'
  | 'cancel_order'
  | 'start_return'
  | 'retry_hold'
  | 'rollback_hold'
  | 'deliver_event'
  | 'publish_flow'
  | 'migrate_orders'
  | 'run_stock_review'
  | 'flow_change'
  | 'needs_attention'
  | 'order_state'
  | 'low_stock'
  | 'flows'
  | 'find_orders';

export interface Intent {
  name: IntentName;
  /** Writes are proposed and run only on confirmation. */
  write: boolean;
  /** The tool it calls (as the caller). */
  tool: string;
  /** The lowest role that may run it (a proposal above the caller's role says so). */
  role: Role;
  /** An example phrasing, for the list of what can be asked. */
  example: string;
}

export const INTENTS: Record<IntentName, Intent> = {
  approve: { name: 'approve', write: true, tool: 'decide_approval', role: 'approver', example: 'approve order ord_… (or: approve it)' },
  reject_approval: { name: 'reject_approval', write: true, tool: 'decide_approval', role: 'approver', example: 'reject the approval of ord_…' },
  cancel_order: { name: 'cancel_order', write: true, tool: 'cancel_order', role: 'operator', example: 'cancel order ord_…' },
  start_return: { name: 'start_return', write: true, tool: 'start_return', role: 'operator', example: 'return 1 PAN-CAST-10 from order ord_… (a return; refunded when the goods arrive)' },
  retry_hold: { name: 'retry_hold', write: true, tool: 'resolve_hold', role: 'operator', example: 'retry the held step of ord_…' },
  rollback_hold: { name: 'rollback_hold', write: true, tool: 'resolve_hold', role: 'operator', example: 'roll back ord_… (its held step)' },
  deliver_event: { name: 'deliver_event', write: true, tool: 'deliver_event', role: 'operator', example: 'deliver payment.received to ord_…' },
  publish_flow: { name: 'publish_flow', write: true, tool: 'publish_flow', role: 'operator', example: 'publish the storefront flow' },
  migrate_orders: {
    name: 'migrate_orders',
    write: true,
    tool: 'migrate_orders',
    role: 'operator',
    example: 'move the orders of the marketplace flow from version 1 to version 2 (contract 15; those that cannot move stay)',
  },
  run_stock_review: { name: 'run_stock_review', write: true, tool: 'run_stock_review', role: 'operator', example: 'run the stock review' },
  flow_change: { name: 'flow_change', write: false, tool: 'propose_flow_change', role: 'operator', example: 'add an approval before capture in the storefront flow (a draft; nothing saved)' },
  needs_attention: { name: 'needs_attention', write: false, tool: 'needs_attention', role: 'viewer', example: 'what needs attention?' },
  order_state: { name: 'order_state', write: false, tool: 'get_order', role: 'viewer', example: 'why is order ord_… stuck?' },
  low_stock: { name: 'low_stock', write: false, tool: 'find_products', role: 'viewer', example: 'which products are low on stock?' },
  flows: { name: 'flows', write: false, tool: 'list_flows', role: 'viewer', example: 'what flows are there?' },
  find_orders: {
    name: 'find_orders',
    write: false,
    tool: 'find_orders',
    role: 'viewer',
    example: 'how many marketplace orders are waiting since Monday? / total of completed orders over $100 last week',
  },
};

/** A question names an order: by id, or by pointing back at the last one when there is one. */
const namesOrder = (s: QuestionSlots, hasLast: boolean) => s.orderId !== undefined || (s.refersBack && hasLast);

/**
 * The intent of a question, or null. Writes are tested first (so "cancel order ord_1" is not read as a search),
 * then single-order questions, then the broader reads.
 */
export function matchIntent(raw: string, slots: QuestionSlots, hasLastOrder: boolean): IntentName | null {
  const text = normalise(raw);
  const t = tokens(raw);
  const order = namesOrder(slots, hasLastOrder);
  if (hasWord(t, 'approve', 'approved', 'accept') && order && !/\bhow many|\bcount|\blist\b/.test(text)) return 'approve';
  if (hasWord(t, 'reject', 'decline', 'deny') && order) return 'reject_approval';
  // Only "cancel" (a typo of it too): "abort" would also catch "about".
  if (hasWord(t, 'cancel') && order) return 'cancel_order';
  // "return 2 MUG-1 from ord_…": a SKU and an order (what a return needs; the quantity defaults to 1).
  if (hasWord(t, 'return', 'returns', 'returned', 'refund') && order && slots.sku) return 'start_return';
  // A held step (contract 16): "retry ord_1", "roll back ord_1" ("rolled back" is a status, read by the searches below).
  const many = /\bhow many\b|\bcount\b|\blist\b/.test(text);
  if (hasWord(t, 'retry') && order && !many) return 'retry_hold';
  if (/\broll ?back\b/.test(text) && order && !many) return 'rollback_hold';
  if ((hasWord(t, 'deliver', 'send', 'record', 'post') || /\bmark\b.*\bas\b/.test(text)) && order && slots.event) return 'deliver_event';
  if (hasWord(t, 'publish', 'release', 'deploy')) return 'publish_flow';
  // Contract 15: "move the orders of the marketplace flow from version 1 to version 2".
  if (slots.flowId && hasWord(t, 'move', 'migrate') && /\bv(ersion)?\s*\d+/.test(text)) return 'migrate_orders';
  // An instruction about a flow's steps: drafted by propose_flow_change, nothing saved.
  if (slots.flowId && /^\s*(please\s+)?(add|insert|remove|delete|skip|drop|connect|reconnect|send|route|set|make|change|wait|notify|on)\b/i.test(raw)) return 'flow_change';
  if (/\b(stock|inventory) (review|check)\b/.test(text) && hasWord(t, 'run', 'start', 'do', 'trigger', 'launch')) return 'run_stock_review';
  if (/\breorder(s)?\b/.test(text) && hasWord(t, 'run', 'start', 'trigger', 'create', 'raise')) return 'run_stock_review';
  if (order && !/\bhow many\b|\btotal\b|\bcount\b/.test(text)) return 'order_state';
  if (hasWord(t, 'attention', 'urgent', 'problems', 'issues', 'todo') || /\b(look at|needs me|what should i|anything wrong|on fire|to do)\b/.test(text))
    return 'needs_attention';
  if (hasWord(t, 'stock', 'inventory', 'products', 'product', 'reorder', 'restock') || slots.sku) return 'low_stock';
  if (/\b(flows?|workflows?|pipelines?)\b/.test(text) && !hasWord(t, 'orders', 'order')) return 'flows';
  if (hasWord(t, 'orders', 'order', 'sales', 'revenue', 'purchases') || /\bhow many\b|\btotal\b|\bcount\b/.test(text) || slots.status || slots.model || slots.channel)
    return 'find_orders';
  return null;
}
