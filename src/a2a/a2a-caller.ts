// The A2A caller: our Principal carried through the SDK as its `User`, and the task owner it maps to.
import type { ServerCallContext, User } from '@a2a-js/sdk/server';
import type { Principal } from '../auth/principal.js';

/**
 * Spec "Task store": each caller has its own tasks; a token and the person who made it keep
 * separate tasks. A token is its own owner; a connected app (OAuth grant, next issue) acts for
 * its person, so all of a person's grants share that person's tasks; the workspace password
 * is one owner.
 */
export function taskOwner(principal: Principal): string {
  switch (principal.kind) {
    case 'token':
      return `token:${principal.id}`;
    case 'workspace':
      return 'workspace';
    case 'app':
      return `person:${principal.personId ?? principal.id}`;
    case 'person':
      return `person:${principal.id}`;
  }
}

/** The SDK's user: authenticated by our authenticator before the SDK sees the request. */
export class A2aCaller implements User {
  constructor(
    readonly principal: Principal,
    /** The client address, for the audit of what the tools do. */
    readonly ip: string | null,
  ) {}

  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return taskOwner(this.principal);
  }
}

/** The caller of a call; every call reaching the SDK was authenticated, so a missing one is a wiring bug. */
export function callerOf(context: ServerCallContext): A2aCaller {
  const user = context.user;
  if (!(user instanceof A2aCaller)) throw new Error('A2A call without an authenticated caller');
  return user;
}
