// Building A2A 1.0 messages and parts (text and data) the way the SDK's types want them.
import { randomUUID } from 'node:crypto';
import { Role, type Message, type Part } from '@a2a-js/sdk';

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function dataPart(value: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** A message from the agent (a status message or a stand-alone answer) within a task and context. */
export function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The text of a message's text parts, joined by blank lines ('' when it has none). */
export function messageText(message: Message): string {
  return message.parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}

/** The data parts of a message, in order. */
export function messageData(message: Message): unknown[] {
  return message.parts.flatMap((p): unknown[] => (p.content?.$case === 'data' ? [p.content.value] : []));
}
