// The `chat` skill (contract section 11): plain-language questions answered by the read tools, writes proposed for confirmation.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { OperationRegistry } from '../operation-registry.js';
import { answerQuestion } from '../assistant/chat-engine.js';
import { askModel, type ModelProviderConfig } from '../assistant/model-provider.js';

const contextSchema = z
  .strictObject({
    lastOrderId: z.string().max(100).optional(),
    lastQuery: z.record(z.string(), z.unknown()).optional(),
  })
  .describe('What the conversation remembers (A2A keeps it per contextId): the last order, the last search');

export interface ChatToolDeps {
  registry: () => OperationRegistry;
  baseUrl: () => string;
  now: () => number;
  /** The optional model (ASSISTANT_PROVIDER_URL and ASSISTANT_MODEL); without it the grammar answers. */
  model?: ModelProviderConfig | null;
  /** Where a model failure is noted (then the grammar answers instead). */
  warn?: (message: string) => void;
}

export function agentChatTool(deps: ChatToolDeps) {
  return defineOperation({
    name: 'chat',
    summary: 'Ask about orders in plain language',
    description:
      'Answers questions about orders, approvals, stock and flows by calling the read tools as the caller (no language model); write requests (approve, reject, cancel, deliver an event, publish, run the stock review) come back as a proposal that runs only on confirmation. docs/assistant.md lists what can be asked.',
    feature: 'assistant',
    audience: 'agents',
    role: 'viewer',
    effect: 'read',
    input: z.strictObject({ text: z.string().min(1).max(4000), context: contextSchema.optional() }),
    output: z.object({
      text: z.string(),
      intent: z.string(),
      tool: z.string().nullable(),
      data: z.unknown(),
      proposal: z.object({ skill: z.string(), input: z.record(z.string(), z.unknown()) }).nullable(),
      summary: z.string().nullable(),
      context: contextSchema,
    }),
    example: { text: 'What needs attention?' },
    summarize: (o) => o.text,
    run: async (caller, input, call) => {
      const grammar = () => answerQuestion({ registry: deps.registry(), baseUrl: deps.baseUrl, now: deps.now }, caller, input, call);
      if (!deps.model) return grammar();
      try {
        return await askModel(deps.model, deps.registry(), caller, input, call, deps.now());
      } catch (err) {
        // The model is optional: unreachable or confused, the grammar still answers.
        deps.warn?.(`assistant model failed, answered by the grammar: ${(err as Error).message}`);
        return grammar();
      }
    },
  });
}

declare module '../operation-types.js' {
  interface OperationModules {
    agentChatTool: ReturnType<typeof agentChatTool>;
  }
}