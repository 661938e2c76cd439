// What a dynamically registered client may ask for (contract section 12): where codes may go, how many, how long a name.
import { errors } from 'oidc-provider';

export const MAX_REDIRECT_URIS = 10;
export const MAX_CLIENT_NAME_CHARS = 200;
/** A redirect URI longer than this is not an address anyone types or a browser keeps. */
export const MAX_REDIRECT_URI_CHARS = 2_000;
/** The whole registration as stored: a public client's metadata is a few hundred bytes; this leaves ample room. */
export const MAX_CLIENT_METADATA_CHARS = 32_768;

/** Loopback hosts as the URL parser spells them (RFC 8252 7.3; `[::1]` keeps its brackets). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Schemes that are never a native app's private-use scheme (RFC 8252 7.1): script and data URLs, files, other
 * protocols and web sockets. `http` and `https` have their own rules.
 */
const REFUSED_SCHEMES = new Set([
  'javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'filesystem:', 'about:', 'view-source:',
  'ftp:', 'ftps:', 'sftp:', 'ws:', 'wss:', 'mailto:', 'tel:', 'sms:', 'urn:', 'ldap:', 'ssh:', 'telnet:', 'gopher:',
]);

/** A redirect URI's kind, or why it is refused. */
export type RedirectKind = { kind: 'https' | 'loopback' | 'private-use' } | { refused: string };

/** Classifies one redirect URI: https anywhere, http only to a loopback host, or a private-use scheme. */
export function classifyRedirectUri(value: unknown): RedirectKind {
  if (typeof value !== 'string') return { refused: 'a redirect URI must be a string' };
  if (value.length > MAX_REDIRECT_URI_CHARS) return { refused: `a redirect URI has at most ${MAX_REDIRECT_URI_CHARS} characters` };
  const url = URL.parse(value);
  if (!url) return { refused: `${value} is not an absolute URI` };
  if (url.username || url.password) return { refused: `${value} must not carry credentials` };
  if (url.hash || value.includes('#')) return { refused: `${value} must not contain a fragment` };
  if (url.protocol === 'https:') return url.hostname ? { kind: 'https' } : { refused: `${value} names no host` };
  if (url.protocol === 'http:')
    return LOOPBACK_HOSTS.has(url.hostname) ? { kind: 'loopback' } : { refused: `${value}: plain http is allowed only to 127.0.0.1, [::1] or localhost` };
  if (REFUSED_SCHEMES.has(url.protocol)) return { refused: `${value}: the ${url.protocol.slice(0, -1)} scheme is not allowed` };
  // A private-use scheme: RFC 3986 scheme syntax (the URL parser already lower-cased it), e.g. cursor:// or com.example.app:/cb.
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? { kind: 'private-use' } : { refused: `${value} has no valid scheme` };
}

/**
 * Where a code for this redirect URI is sent, as a person should read it on the consent page: the host (and
 * port) for http(s), the scheme (`cursor:`) for a native app's private-use scheme.
 */
export function redirectTarget(uri: string): { kind: 'host' | 'scheme'; target: string } {
  const url = URL.parse(uri);
  if (!url) return { kind: 'host', target: uri };
  if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'host', target: url.host };
  return { kind: 'scheme', target: url.protocol };
}

/**
 * Checks a client's metadata as the provider builds the client (at registration and on every load from
 * storage), before its own checks: the values may have any JSON type here, and a wrong type is left to
 * the provider's own checks. Throws RFC 7591 errors. Sets what the service decides for every client:
 * a client with a loopback or private-use redirect is a native app (RFC 8252), which lets it use any
 * loopback port at authorization time (RFC 8252 7.3), and answers come in the query only (no
 * form_post page that posts the code to another origin).
 */
export function enforceClientPolicy(metadata: Record<string, unknown>): void {
  const name = metadata.client_name;
  if (typeof name === 'string' && [...name].length > MAX_CLIENT_NAME_CHARS)
    throw new errors.InvalidClientMetadata(`client_name has at most ${MAX_CLIENT_NAME_CHARS} characters`);
  const uris = metadata.redirect_uris;
  if (Array.isArray(uris)) {
    if (uris.length > MAX_REDIRECT_URIS) throw new errors.InvalidRedirectUri(`at most ${MAX_REDIRECT_URIS} redirect_uris`);
    let native = false;
    for (const uri of uris) {
      const checked = classifyRedirectUri(uri);
      if ('refused' in checked) throw new errors.InvalidRedirectUri(checked.refused);
      if (checked.kind !== 'https') native = true;
    }
    if (native) metadata.application_type = 'native';
  }
  metadata.response_modes = ['query'];
  if (JSON.stringify(metadata).length > MAX_CLIENT_METADATA_CHARS)
    throw new errors.InvalidClientMetadata(`the client metadata has at most ${MAX_CLIENT_METADATA_CHARS} characters`);
}
