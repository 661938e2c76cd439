// One guarded image GET for assess_order: https only, the outbound SSRF rules (resolve, refuse non-public, pin), no redirects, a timeout, a size cap, only the head read.
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';

/** How the outbound rules class a resolved address (the webhooks' address policy, passed in: orders import no webhooks). */
export type AddressVerdict = 'public' | 'loopback' | 'blocked';

export interface ImageFetchOptions {
  /** OUTBOUND_TIMEOUT_MS: the whole exchange, connect to last byte. */
  timeoutMs: number;
  /** OUTBOUND_ALLOW_LOOPBACK=1: loopback addresses may be reached (testing only). */
  allowLoopback: boolean;
  /** Largest image accepted: a declared Content-Length above it is refused unread. */
  maxBytes: number;
  /** Most bytes read (the format signature is all that is used): the connection is closed once they are in. */
  headBytes: number;
  /** Classes one resolved address (src/webhooks/address-policy.ts `classifyAddress`). */
  classify: (address: string) => AddressVerdict;
  /** Certificate authorities to trust instead of the system's (tests only: their own self-signed one). */
  ca?: string | Buffer;
  /** Name resolution (tests may replace it); returns every address of the host. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/**
 * `head`: the first `headBytes` bytes (fewer when the body is shorter); `size`: the whole body's
 * length when known (declared by Content-Length, or the body ended within the head), else null.
 * `notFetched`: no request was made because a limit said so (assess_order's per-request budget or
 * its concurrency caps), as opposed to a fetch that failed.
 */
export type ImageFetchResult = { ok: true; head: Buffer; size: number | null } | { ok: false; error: string; notFetched?: true };

const defaultResolve = async (host: string) => dnsLookup(host, { all: true, verbatim: true });
const failure = (error: string): ImageFetchResult => ({ ok: false, error });

/**
 * GETs `target`. Refuses before connecting unless the URL is https and every address its host
 * resolves to is public (loopback too with the testing switch); connects to the checked address
 * so a second lookup cannot be steered elsewhere (DNS rebinding); follows no redirect; refuses a
 * declared length over `maxBytes`; reads only the first `headBytes` bytes and then destroys the
 * connection (an endless or huge body costs one chunk, security review 2 M-6); stops at the
 * timeout. Never throws: every problem is a sentence in `error`.
 */
export async function fetchImage(target: string, options: ImageFetchOptions): Promise<ImageFetchResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return failure('Invalid URL');
  }
  if (url.protocol !== 'https:') return failure('Only https URLs are fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (options.resolve ?? defaultResolve)(host);
  } catch (err) {
    return failure(`Could not resolve ${host}: ${(err as Error).message}`);
  }
  if (addresses.length === 0) return failure(`Could not resolve ${host}`);
  for (const a of addresses) {
    const verdict = options.classify(a.address);
    if (verdict === 'public' || (verdict === 'loopback' && options.allowLoopback)) continue;
    // Generic on purpose, as for webhooks: the answer must not map the internal network.
    return failure(
      verdict === 'loopback'
        ? `Refused: ${host} resolves to a loopback address (OUTBOUND_ALLOW_LOOPBACK is off)`
        : `Refused: ${host} does not resolve to a public internet address`,
    );
  }
  const pinned = addresses[0];
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    if (opts.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };

  return new Promise<ImageFetchResult>((resolve) => {
    let settled = false;
    const finish = (result: ImageFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = https.get(
      {
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { accept: 'image/png, image/jpeg, image/webp' },
        lookup,
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
        ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) return finish(failure(`Redirect not followed (HTTP ${status})`));
        if (status < 200 || status >= 300) return finish(failure(`HTTP ${status}`));
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) return finish(failure(`Larger than ${options.maxBytes} bytes`));
        const size = Number.isFinite(declared) && declared >= 0 ? declared : null;
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          read += chunk.length;
          // Enough for the format: keep the head and close the connection (finish destroys the request and its socket).
          if (read >= options.headBytes) finish({ ok: true, head: Buffer.from(Buffer.concat(chunks).subarray(0, options.headBytes)), size });
        });
        res.on('end', () => finish({ ok: true, head: Buffer.concat(chunks), size: size ?? read }));
        res.on('error', (err) => finish(failure(err.message)));
      },
    );
    const timer = setTimeout(() => finish(failure(`No answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('error', (err) => finish(failure(err.message)));
  });
}
