// Who one per-caller limit counts (websockets of contract 8, drawings of contract 13, image fetches of contract 11).
import type { Principal } from './principal.js';

/**
 * A person counts once however many sessions, API tokens and connected apps act for them, so signing in
 * again or minting a token does not buy more; the workspace password counts once however many sessions
 * it signed in; a credential without a person (a token made with the workspace password) counts alone.
 */
export function callerKey(principal: Principal): string {
  if (principal.kind === 'person') return `person:${principal.id}`;
  if (principal.kind === 'workspace') return 'workspace';
  if (typeof principal.personId === 'string') return `person:${principal.personId}`;
  return `${principal.kind}:${principal.id}`;
}
