// Resolves the caller of a request from a bearer credential or a session cookie: headers in, Principal out, no framework.
import type { CredentialRequest } from './credential-request.js';
import type { Principal } from './principal.js';
import { DomainError, unauthorized, forbidden } from '../domain/errors.js';
import { roleAtLeast, type Role } from './roles.js';

/** Tries one kind of bearer credential; null means "not mine", a throw means "mine but refused". */
export type BearerResolver = (secret: string, req: CredentialRequest) => Promise<Principal | null>;

/** Reads the dashboard session cookie; null when there is none or it is not valid. */
export type SessionResolver = (req: CredentialRequest) => Promise<Principal | null>;

/**
 * Called when no resolver knew the bearer: the last chance (the workspace password, which must be
 * counted as a guess before it is compared). Returns the principal, or throws (401 wrong, 429 over the limit).
 */
export type BearerFallback = (secret: string, req: CredentialRequest) => Promise<Principal>;

/** Called before any bearer resolver runs (throttling that must refuse even a correct secret). */
export type BearerGuard = (req: CredentialRequest) => Promise<void>;

export class Authenticator {
  private readonly bearers: BearerResolver[] = [];
  private readonly guards: BearerGuard[] = [];
  private sessions: SessionResolver | null = null;
  private fallback: BearerFallback | null = null;

  addBearer(resolver: BearerResolver): this {
    this.bearers.push(resolver);
    return this;
  }

  addBearerGuard(guard: BearerGuard): this {
    this.guards.push(guard);
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
      for (const guard of this.guards) await guard(req);
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

  /** Authenticates and checks the role server-side: 401 without a credential, 403 below `need`. */
  async require(req: CredentialRequest, need: Role, allowRestricted = false): Promise<Principal> {
    const principal = await this.authenticate(req);
    if (!principal) throw unauthorized('Authentication required');
    if (principal.restricted && !allowRestricted) throw forbidden(restrictionMessage(principal));
    if (!roleAtLeast(principal.role, need)) throw new DomainError('forbidden', `This needs the ${need} role`, 'forbidden');
    return principal;
  }
}

/** Why a restricted principal is refused; a token is restricted by its owner's state (it acts for them). */
function restrictionMessage(principal: Principal): string {
  if (principal.kind === 'token')
    return principal.restricted === 'temporary_password'
      ? "This API token's owner must choose their own password on the Account page first"
      : "This API token's owner must turn on two-factor sign-in on the Account page first";
  return principal.restricted === 'temporary_password'
    ? 'Choose your own password on the Account page first'
    : 'Two-factor sign-in is required: turn it on on the Account page';
}
