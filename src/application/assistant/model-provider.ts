// The assistant's optional model: an OpenAI-compatible /chat/completions endpoint that chooses tools and writes the answer.
import type { OperationRegistry } from '../operation-registry.js';
import type { AnyOperation, CallContext } from '../operation.js';
import type { Principal } from '../../auth/principal.js';
import { roleAtLeast } from '../../auth/roles.js';
import type { ChatAnswer, ChatContext } from './chat-engine.js';

export interface ModelProviderConfig {
  /** Base URL of the endpoint (`…/v1`); `/chat/completions` is appended. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Rounds of tool calls one question may take before the model must answer. */
const MAX_ROUNDS = 4;

type Message =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };
interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tools a model may choose: the agents' tools but chat itself, each with its input schema. */
function toolsFor(registry: OperationRegistry): AnyOperation[] {
  return registry.list().filter((op) => op.audience === 'agents' && op.name !== 'chat');
}

function functionTool(op: AnyOperation) {
  const { $schema: _drop, ...parameters } = op.input['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  return { type: 'function', function: { name: op.name, description: `${op.summary}. ${op.description}`, parameters } };
}

/**
 * Asks the model. Reads run at once through the registry as the caller (the role checks apply) and
 * their outputs go back to the model; a write is never run: the first write the model chooses
 * becomes the proposal, confirmed like the grammar's. The answer is the model's text.
 */
export async function askModel(
  config: ModelProviderConfig,
  registry: OperationRegistry,
  caller: Principal,
  input: { text: string; context?: ChatContext },
  call: CallContext,
  now: number,
): Promise<ChatAnswer> {
  const tools = toolsFor(registry);
  const byName = new Map(tools.map((op) => [op.name, op]));
  const messages: Message[] = [
    {
      role: 'system',
      content:
        `You answer questions about an order orchestration service for a ${caller.role}. Today is ${new Date(now).toISOString().slice(0, 10)}. ` +
        'Use the tools to read; never invent a number or an id the tools did not return. Actions are proposed to the person, who confirms them. ' +
        (input.context ? `The conversation so far mentioned: ${JSON.stringify(input.context)}.` : ''),
    },
    { role: 'user', content: input.text },
  ];
  let lastTool: string | null = null;
  let lastData: unknown = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const res = await fetch(`${config.url.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({ model: config.model, messages, tools: tools.map(functionTool), tool_choice: 'auto' }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    if (!res.ok) throw new Error(`assistant model answered HTTP ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string | null; tool_calls?: ToolCall[] } }[] };
    const message = body.choices?.[0]?.message;
    if (!message) throw new Error('assistant model answered no message');
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return { text: message.content ?? '', intent: 'model', tool: lastTool, data: lastData, proposal: null, summary: null, context: input.context ?? {} };
    messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
    for (const toolCall of calls) {
      const op = byName.get(toolCall.function.name);
      // The model's arguments as sent (the tool's input schema checks them); unreadable JSON is no argument.
      let args: unknown;
      try {
        args = JSON.parse(toolCall.function.arguments || '{}');
      } catch {
        args = {};
      }
      if (op?.effect === 'write') {
        const note = roleAtLeast(caller.role, op.role) ? '' : ` This needs the ${op.role} role: a confirmation as ${caller.role} will be refused.`;
        const summary = message.content?.trim() || `Run ${op.name} with ${JSON.stringify(args)}?`;
        return {
          text: `${summary} Reply { "confirm": true } to do it, or { "confirm": false } to drop it.${note}`,
          intent: 'model',
          tool: op.name,
          data: null,
          // A proposal's input is an object (the chat tool's output schema); other JSON proposes no input.
          proposal: { skill: op.name, input: isRecord(args) ? args : {} },
          summary,
          context: input.context ?? {},
        };
      }
      let content: string;
      try {
        lastData = await registry.callByName(toolCall.function.name, caller, args, call);
        lastTool = toolCall.function.name;
        content = JSON.stringify(lastData).slice(0, 20_000);
      } catch (err) {
        content = JSON.stringify({ error: (err as Error).message });
      }
      messages.push({ role: 'tool', tool_call_id: toolCall.id, content });
    }
  }
  throw new Error('assistant model did not answer within its rounds of tool calls');
}
