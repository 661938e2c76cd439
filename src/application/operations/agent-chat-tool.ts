// The `chat` skill (contract section 11): plain-language questions over A2A; answers "not available yet" until the assistant.
import { z } from 'zod';
import { defineOperation, type AnyOperation } from '../operation.js';
import { DomainError } from '../../domain/errors.js';

export function agentChatTool(): AnyOperation {
  return defineOperation({
    name: 'chat',
    summary: 'Ask about orders in plain language',
    description: 'Not available yet: the assistant (its intent grammar and confirmed actions) is its own issue. Until then the answer says so; the typed tools answer the same questions.',
    feature: 'assistant',
    audience: 'agents',
    role: 'viewer',
    effect: 'read',
    input: z.strictObject({ text: z.string().min(1).max(4000) }),
    output: z.object({ text: z.string() }),
    example: { text: 'What needs attention?' },
    run: async () => {
      throw new DomainError('not_available', 'chat is not available yet: ask with the typed skills (needs_attention, find_orders, get_order, ...)', 'unavailable');
    },
  });
}
