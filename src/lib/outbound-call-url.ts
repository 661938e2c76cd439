// The URL rule of external calls (http.call, the HTTP payment and carrier adapters): https, or http to a loopback host.

/** Hosts an http URL may name (reached only with OUTBOUND_ALLOW_LOOPBACK=1, for testing). */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** https, or http to a loopback host; never credentials in the URL (they would land in logs and the timeline). */
export function isOutboundCallUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}

/** The message a schema shows when a URL breaks the rule. */
export const OUTBOUND_CALL_URL_RULE = 'Expected an https URL without credentials (http only to a loopback host, for testing)';
