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
  /** Session id when via is `session`. */
  sessionId?: string;
  email?: string;
}
