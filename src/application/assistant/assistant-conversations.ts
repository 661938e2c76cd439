// The assistant's conversations as the pages see them: a port below the faces, which the A2A face implements.
import type { Principal } from '../../auth/principal.js';

/** One turn of a conversation as the page shows it. */
export interface ConversationTurn {
  taskId: string;
  question: string;
  answer: string;
  /** INPUT_REQUIRED while a proposal waits for confirmation. */
  state: string;
  proposal: { skill: string; input: Record<string, unknown> } | null;
}

/**
 * A person's named assistant conversations. The service's implementation keeps them as A2A tasks
 * (`src/a2a/a2a-conversations.ts`), so the dashboard's /assistant page and the person's connected A2A apps
 * share one conversation, while the page (another face) depends only on this port.
 */
export interface AssistantConversations {
  /** The latest turns of a conversation, oldest first. */
  history(principal: Principal, name: string): Promise<ConversationTurn[]>;
  /** Asks as `principal` in the named conversation. */
  ask(principal: Principal, ip: string | null, name: string, text: string): Promise<ConversationTurn>;
  /** Answers a waiting proposal (`confirm` true or false) on its task, as `principal`. */
  confirm(principal: Principal, ip: string | null, name: string, taskId: string, confirm: boolean): Promise<ConversationTurn>;
}
