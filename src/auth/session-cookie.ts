// Cookie names (`__Host-svc_session` over HTTPS; `svc_session` on plain-HTTP development, contract 4) and reading them.
import { safeDecodeURIComponent } from '../lib/safe-decode.js';
import type { CredentialRequest } from './credential-request.js';

export interface CookieNames {
  session: string;
  /** The pending two-factor sign-in (10 minutes). */
  challenge: string;
  /** `Secure` attribute; `__Host-` requires it, so it goes with the prefix. */
  secure: boolean;
}

/**
 * Derived from the public address: an https BASE_URL gets the `__Host-` prefix (Secure,
 * Path=/, no Domain); a plain-http address (local development) cannot set Secure cookies,
 * so it uses the unprefixed names the contract allows.
 */
export function cookieNames(baseUrl: string): CookieNames {
  const secure = baseUrl.startsWith('https://');
  return secure
    ? { session: '__Host-svc_session', challenge: '__Host-svc_2fa', secure }
    : { session: 'svc_session', challenge: 'svc_2fa', secure };
}

/**
 * Reads one cookie from the Cookie header (no signing: the value is a random token looked up by hash).
 * A value that is not valid percent-encoding is treated as no cookie: a mangled credential is a wrong
 * credential (401 / sign-in page), never an exception at the edge.
 */
export function readCookie(ctx: Pick<CredentialRequest, 'get'>, name: string): string | null {
  const header = ctx.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? null : safeDecodeURIComponent(value);
    }
  }
  return null;
}
