// The agents' tools of contract section 11, as registry operations with `audience: 'agents'` (MCP tools, A2A skills):
// each an adapter of the operation REST binds (src/application/agent-tool.ts), chat aside (it calls the others).
import { agentOrderTools, type OrderToolBases } from './agent-order-tools.js';
import { agentFlowTools, type FlowToolBases } from './agent-flow-tools.js';
import { agentChatTool, type ChatToolDeps } from './agent-chat-tool.js';
import type { OrderOperationDeps } from './order-operations.js';

/** The tool names, as the spec's A2A skill table and contract sections 11, 15 (migrate_orders) and 16 (resolve_hold) list them. */
export const AGENT_TOOL_NAMES = [
  'chat',
  'place_order',
  'needs_attention',
  'find_orders',
  'get_order',
  'assess_order',
  'find_products',
  'list_flows',
  'get_flow',
  'flow_stats',
  'propose_flow_change',
  'decide_approval',
  'deliver_event',
  'cancel_order',
  'start_return',
  'resolve_hold',
  'publish_flow',
  'run_stock_review',
  'simulate_flow',
  'flow_impact',
  'migrate_orders',
] as const;

/**
 * The order and flow tools and chat, over the very operations the registry holds (`bases`). The
 * catalogue tools (find_products, run_stock_review) adapt the back-office operations and are added
 * with them by the commerce module (agent-catalogue-tools.ts).
 */
export function agentTools(deps: Pick<OrderOperationDeps, 'db' | 'clock'> & { chat: Omit<ChatToolDeps, 'now'> }, bases: OrderToolBases & FlowToolBases) {
  const chat = agentChatTool({ ...deps.chat, now: () => deps.clock.now() });
  return [...agentOrderTools(deps, bases), ...agentFlowTools(bases), chat];
}
