// One outbound request with the SSRF guard: resolve, refuse non-public addresses, connect to the vetted address,
// never follow a redirect, cut the whole exchange at the timeout.
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { addressAllowed, classifyAddress } from './address-policy.js';
import { isLoopbackUrl } from './subscription-url.js';

export interface OutboundPostOptions {
  timeoutMs: number;
  /** OUTBOUND_ALLOW_LOOPBACK=1: loopback URLs and addresses may be reached (testing only). */
  allowLoopback: boolean;
  /** Name resolution (tests may replace it); returns every address of the host. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export interface OutboundResult {
  /** Any 2xx. */
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** A request's answer with its body (sendOutbound with `readBody`). */
export interface OutboundAnswer extends OutboundResult {
  /** The answer's bytes, at most RESPONSE_READ_LIMIT (null when there was no answer). */
  body: Buffer | null;
  /** The answer was longer than RESPONSE_READ_LIMIT and was cut. */
  truncated: boolean;
  /** The request could not even be sent (Node refused to build it, e.g. a header value with CR/LF): sending it again cannot help. */
  unsendable?: true;
}

/** Most response bytes read; the rest of a long answer is not waited for. */
export const RESPONSE_READ_LIMIT = 64 * 1024;

const defaultResolve = async (host: string) => dnsLookup(host, { all: true, verbatim: true });

const failure = (error: string, status: number | null = null): OutboundAnswer => ({ ok: false, status, error, body: null, truncated: false });

/** POSTs `body` to `target` (sendOutbound; the answer's body is read and dropped). */
export async function postOutbound(target: string, headers: Record<string, string>, body: string, options: OutboundPostOptions): Promise<OutboundResult> {
  const { ok, status, error } = await sendOutbound('POST', target, headers, body, options);
  return { ok, status, error };
}

/**
 * Sends `method` with `body` (none when null) to `target`. Refuses before connecting when the
 * URL is a loopback http URL without the testing switch, or when any address the host resolves
 * to is private, loopback (without the switch), link-local or otherwise special; then pins the
 * connection to the checked address so a second lookup cannot be steered elsewhere (DNS
 * rebinding). With `readBody` the answer's first RESPONSE_READ_LIMIT bytes come back, and the
 * answer counts only once it ended, was cut, or the timeout passed.
 */
export async function sendOutbound(
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | null,
  options: OutboundPostOptions & { readBody?: boolean },
): Promise<OutboundAnswer> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return failure('Invalid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return failure('Only https URLs are reached');
  if (url.protocol === 'http:' && !(isLoopbackUrl(url) && options.allowLoopback))
    return failure('Plain-http loopback URLs are accepted but never reached (OUTBOUND_ALLOW_LOOPBACK is off)');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (options.resolve ?? defaultResolve)(host);
  } catch (err) {
    return failure(`Could not resolve ${host}: ${(err as Error).message}`);
  }
  if (addresses.length === 0) return failure(`Could not resolve ${host}`);
  const refused = addresses.find((a) => !addressAllowed(a.address, options.allowLoopback));
  if (refused)
    // Generic on purpose (security review L3): the delivery log must not map the internal network for whoever reads it.
    return failure(
      classifyAddress(refused.address) === 'loopback'
        ? `Refused: ${host} resolves to a loopback address (OUTBOUND_ALLOW_LOOPBACK is off)`
        : `Refused: ${host} does not resolve to a public internet address`,
    );
  const pinned = addresses[0];
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };

  const payload = body === null ? null : Buffer.from(body, 'utf8');
  return new Promise<OutboundAnswer>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const transport = url.protocol === 'https:' ? https : http;
    // Node validates a request as it builds it and throws at once (ERR_INVALID_CHAR for a header value with CR/LF,
    // ERR_INVALID_HTTP_TOKEN, ...): that is an answer too, never a rejection, so the caller records a failure it
    // will not repeat instead of re-firing the attempt forever (security review 2, L-1).
    const unsendable = (err: unknown) => finish({ ...failure(`The request cannot be sent: ${(err as Error).message}`), unsendable: true });
    let req: http.ClientRequest;
    try {
      req = transport.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method,
          headers: payload === null ? headers : { ...headers, 'content-length': String(payload.length) },
          lookup,
          agent: false,
          ...(url.protocol === 'https:' && !/^[\d.:]+$/.test(host) ? { servername: host } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const verdict = (bytes: Buffer | null, truncated: boolean): OutboundAnswer =>
            status >= 200 && status < 300
              ? { ok: true, status, error: null, body: bytes, truncated }
              : { ...failure(status >= 300 && status < 400 ? `Redirect not followed (HTTP ${status})` : `HTTP ${status}`, status), body: bytes, truncated };
          // Without readBody the status decides at once; the body is read and dropped (and cut if it is long or slow).
          if (!options.readBody) finish(verdict(null, false));
          const chunks: Buffer[] = [];
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            if (read < RESPONSE_READ_LIMIT) chunks.push(chunk);
            read += chunk.length;
            if (read > RESPONSE_READ_LIMIT) {
              finish(verdict(Buffer.concat(chunks).subarray(0, RESPONSE_READ_LIMIT), true));
              req.destroy();
            }
          });
          res.on('end', () => finish(verdict(Buffer.concat(chunks), false)));
          res.on('error', () => undefined);
          setTimeout(() => req.destroy(), options.timeoutMs).unref();
        },
      );
    } catch (err) {
      return unsendable(err);
    }
    timer = setTimeout(() => {
      finish(failure(`No answer within ${options.timeoutMs} ms`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err) => finish(failure(err.message)));
    try {
      if (payload === null) req.end();
      else req.end(payload);
    } catch (err) {
      req.destroy();
      unsendable(err);
    }
  });
}
