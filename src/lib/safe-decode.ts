// Percent-decoding that never throws: request-derived text (paths, cookies) is decoded at the edge.

/**
 * `decodeURIComponent`, but null for input that is not valid percent-encoded UTF-8
 * (`%E0%A4%A`, a lone `%`): callers answer that as a malformed or wrong value (400, 401,
 * 404), never as an exception. A `URIError` thrown synchronously inside an event-emitter
 * listener stops the process, which is how one upgrade request could kill the service.
 */
export function safeDecodeURIComponent(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
