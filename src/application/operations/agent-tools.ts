// The agents' tools of contract section 11, as registry operations with `audience: 'agents'` (MCP tools, A2A skills).
import type { AnyOperation } from '../operation.js';
import type { OrderRuntime } from '../../engine/runtime/order-runtime.js';
import { agentOrderTools } from './agent-order-tools.js';
import { agentCatalogueTools } from './agent-catalogue-tools.js';
import { agentFlowTools } from './agent-flow-tools.js';
import { agentChatTool, type ChatToolDeps } from './agent-chat-tool.js';
import type { OrderOperationDeps } from './order-operations.js';

/** The tool names, as the spec's A2A skill table and contract section 11 list them. */
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
  'propose_flow_change',
  'decide_approval',
  'deliver_event',
  'cancel_order',
  'publish_flow',
  'run_stock_review',
] as const;

export function agentTools(deps: OrderOperationDeps & { runtime: OrderRuntime; chat: Omit<ChatToolDeps, 'now'> }): AnyOperation[] {
  const chat = agentChatTool({ ...deps.chat, now: () => deps.clock.now() });
  return [...agentOrderTools(deps), ...agentCatalogueTools(deps), ...agentFlowTools(deps), chat];
}
