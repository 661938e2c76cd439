// One outbound POST with the SSRF guard: resolve, refuse non-public addresses, connect to the vetted address,
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

/** Most response bytes read (and dropped); the rest of a long answer is not waited for. */
const RESPONSE_READ_LIMIT = 64 * 1024;

const defaultResolve = async (host: string) => dnsLookup(host, { all: true, verbatim: true });

const failure = (error: string, status: number | null = null): OutboundResult => ({ ok: false, status, error });

/**
 * POSTs `body` to `target`. Refuses before connecting when the URL is a loopback http URL
 * without the testing switch, or when any address the host resolves to is private, loopback
 * (without the switch), link-local or otherwise special; then pins the connection to the
 * checked address so a second lookup cannot be steered elsewhere (DNS rebinding).
 */
export async function postOutbound(target: string, headers: Record<string, string>, body: string, options: OutboundPostOptions): Promise<OutboundResult> {
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
    if ((opts as { all?: boolean }).all) (callback as any)(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };

  const payload = Buffer.from(body, 'utf8');
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length) },
        lookup,
        agent: false,
        ...(url.protocol === 'https:' && !/^[\d.:]+$/.test(host) ? { servername: host } : {}),
      },
      (res) => {
        // The status decides; the answer's body is read and dropped (and cut if it is long or slow).
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) finish({ ok: true, status, error: null });
        else if (status >= 300 && status < 400) finish(failure(`Redirect not followed (HTTP ${status})`, status));
        else finish(failure(`HTTP ${status}`, status));
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_READ_LIMIT) req.destroy();
        });
        res.on('error', () => undefined);
        setTimeout(() => req.destroy(), options.timeoutMs).unref();
      },
    );
    const timer = setTimeout(() => {
      finish(failure(`No answer within ${options.timeoutMs} ms`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err) => finish(failure(err.message)));
    req.end(payload);
  });
}
