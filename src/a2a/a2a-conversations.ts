// Assistant conversations as A2A tasks: the dashboard's /assistant page talks through the same handler and task store,
// so a person's conversation (owner person:<id>, contextId assistant:<name>) is the same one their connected A2A apps see.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { defaultServerCallContextBuilder, type ServerCallContext } from '@a2a-js/sdk/server';
import type { Principal } from '../auth/principal.js';
import type { AssistantConversations, ConversationTurn } from '../application/assistant/assistant-conversations.js';
import { A2aCaller, taskOwner } from './a2a-caller.js';
import { messageText } from './a2a-parts.js';
import type { A2aRequestHandler } from './a2a-request-handler.js';
import type { A2aTaskStore } from './a2a-task-store.js';

/** The A2A contextId of a named assistant conversation. */
export const conversationContext = (name: string) => `assistant:${name}`;

function message(parts: Message['parts'], extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}

/** A task as a turn: the question asked, the latest status text, the proposal of its chat artifact. */
export function turnOf(task: Task): ConversationTurn {
  const first = task.history?.find((m) => m.role === Role.ROLE_USER);
  let proposal: ConversationTurn['proposal'] = null;
  for (const artifact of task.artifacts ?? [])
    if (artifact.name === 'chat')
      for (const part of artifact.parts)
        if (part.content?.$case === 'data') proposal = ((part.content.value as { proposal?: ConversationTurn['proposal'] }).proposal ?? null);
  const state = TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? 'TASK_STATE_UNSPECIFIED';
  return {
    taskId: task.id,
    question: first ? messageText(first) : '',
    answer: task.status?.message ? messageText(task.status.message) : '',
    state,
    proposal: state === 'TASK_STATE_INPUT_REQUIRED' ? proposal : null,
  };
}

/** The assistant's conversations kept as A2A tasks: the same handler and task store the A2A face serves. */
export class A2aConversations implements AssistantConversations {
  constructor(private readonly deps: { handler: () => A2aRequestHandler; store: A2aTaskStore }) {}

  private context(principal: Principal, ip: string | null): ServerCallContext {
    return defaultServerCallContextBuilder({ extensions: undefined, user: new A2aCaller(principal, ip), headers: {}, requestedVersion: '1.0' });
  }

  /** The latest turns of a conversation, oldest first (the task store keeps the latest 50 per contextId). */
  async history(principal: Principal, name: string): Promise<ConversationTurn[]> {
    return (await this.deps.store.contextTasks(taskOwner(principal), conversationContext(name))).map(turnOf);
  }

  /** Asks as `principal`: a text message to the chat skill, in the named conversation. */
  async ask(principal: Principal, ip: string | null, name: string, text: string): Promise<ConversationTurn> {
    const sent = await this.deps.handler().sendMessage(
      { tenant: '', message: message([{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }], { contextId: conversationContext(name) }), configuration: undefined, metadata: undefined },
      this.context(principal, ip),
    );
    return turnOf(sent as Task);
  }

  /** Answers a waiting proposal: `{ confirm }` on its task, as `principal`. */
  async confirm(principal: Principal, ip: string | null, name: string, taskId: string, confirm: boolean): Promise<ConversationTurn> {
    const sent = await this.deps.handler().sendMessage(
      {
        tenant: '',
        message: message([{ content: { $case: 'data', value: { confirm } }, metadata: undefined, filename: '', mediaType: '' }], { contextId: conversationContext(name), taskId }),
        configuration: undefined,
        metadata: undefined,
      },
      this.context(principal, ip),
    );
    const task = (sent as Task).id ? (sent as Task) : await this.deps.handler().getTask({ tenant: '', id: taskId, historyLength: undefined }, this.context(principal, ip));
    return turnOf(task);
  }
}
