// Resolves the caller of a request from a bearer credential or a session cookie: headers in, Principal out, no framework.
import type { CredentialRequest } from './credential-request.js';
import type { Principal } from './principal.js';
import { unauthorized } from '../domain/errors.js';
import type { Role } from './roles.js';
import { authorize } from './authorize.js';

/** Tries one kind of bearer credential; null means "not mine", a throw means "mine but refused". */
export type BearerResolver = (secret: string, req: CredentialRequest) => Promise<Principal | null>;

/** Reads the dashboard session cookie; null when there is none or it is not valid. */
export type SessionResolver = (req: CredentialRequest) => Promise<Principal | null>;

/**
 * Called when no resolver knew the bearer: the last chance (the workspace password, which must be
 * counted as a guess before it is compared). Returns the principal, or throws (401 wrong, 429 over the limit).
 */
export type BearerFallback = (secret: string, req: CredentialRequest) => Promise<Principal>;

export class Authenticator {
  private readonly bearers: BearerResolver[] = [];
  private sessions: SessionResolver | null = null;
  private fallback: BearerFallback | null = null;

  addBearer(resolver: BearerResolver): this {
    this.bearers.push(resolver);
    return this;
  }

  setSessions(resolver: SessionResolver): this {
    this.sessions = resolver;
    return this;
  }

  setBearerFallback(fallback: BearerFallback): this {
    this.fallback = fallback;
    return this;
  }

  /**
   * Resolved principals per request object, so the checks of one request (its route, then its page
   * guard) resolve the credential once; a transport that wants a fresh check passes a fresh object.
   */
  private readonly resolved = new WeakMap<CredentialRequest, Principal | null>();

  /** The principal of the request, or null when it carries no credential at all. Wrong bearer: 401. */
  async authenticate(req: CredentialRequest): Promise<Principal | null> {
    if (this.resolved.has(req)) return this.resolved.get(req)!;
    const header = req.get('authorization');
    let principal: Principal | null = null;
    if (header) {
      const match = /^Bearer\s+(.+)$/i.exec(header.trim());
      if (!match) throw unauthorized('Authorization must be a Bearer credential');
      const secret = match[1].trim();
      for (const resolve of this.bearers) {
        principal = await resolve(secret, req);
        if (principal) break;
      }
      if (!principal) {
        if (!this.fallback) throw unauthorized('Invalid credential');
        principal = await this.fallback(secret, req);
      }
    } else if (this.sessions) {
      principal = await this.sessions(req);
    }
    this.resolved.set(req, principal);
    return principal;
  }

  /** Drops what `authenticate` resolved for this request (after a change within it, e.g. a new password). */
  forget(req: CredentialRequest): void {
    this.resolved.delete(req);
  }

  /** Authenticates and checks the role server-side: 401 without a credential, 403 below `need` (see `authorize`). */
  async require(req: CredentialRequest, need: Role, allowRestricted = false): Promise<Principal> {
    return authorize(await this.authenticate(req), need, allowRestricted);
  }
}
