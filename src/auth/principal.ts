// The caller of a request (DESIGN rule 9): who it is, its role, and the label decisions record.
import type { Role } from './roles.js';

export type PrincipalKind = 'workspace' | 'person' | 'token' | 'app';

export interface Principal {
  kind: PrincipalKind;
  /** Person id, token id or grant id; null for the workspace password. */
  id: string | null;
  role: Role;
  /** What approval decisions and timelines record: `api`, `operator`, an email, `token:<name>`, `<email> via MCP`. */
  actor: string;
  /** How the credential arrived: a bearer header or a dashboard session cookie. */
  via: 'bearer' | 'session';
  /** Restrictions that block everything but the Account page (temporary password, missing two-factor). */
  restricted?: 'temporary_password' | 'two_factor_required';
  /**
   * The person a token acts for (its owner; null for a token made with the workspace password),
   * so tokens made through it act for the same person. Unset for other kinds: see actingPersonId.
   */
  personId?: string | null;
  /** Session id when via is `session`. */
  sessionId?: string;
  email?: string;
}

/**
 * The person whose current state bounds what a credential made by this principal may do (a new API
 * token's owner): a person themself, a token's owner; null for the workspace password and its tokens.
 * A principal of another kind without `personId` gives its own id, which names no person, so a token
 * it made is refused rather than left unbounded.
 */
export function actingPersonId(principal: Principal): string | null {
  if (principal.kind === 'workspace') return null;
  if (principal.kind === 'person') return principal.id;
  return principal.personId !== undefined ? principal.personId : principal.id;
}
