// An image URL of assess_order is fetched under the outbound SSRF rules (issue 5): https only, public addresses
// (loopback only with OUTBOUND_ALLOW_LOOPBACK), no redirects, a size cap; every problem is an error sentence, never a throw.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImage, type ImageFetchOptions } from '../../../src/orders/image-fetch.js';
import { classifyAddress } from '../../../src/webhooks/address-policy.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
/** What the endless image sent and whether its connection was closed by the reader. */
const endlessSeen = { sent: 0, closed: false };

/** A PNG signature, then 16 KiB chunks without end (no Content-Length), each written once the last drained. */
function endless(res: import('node:http').ServerResponse): void {
  res.writeHead(200, { 'content-type': 'image/png' });
  const first = Buffer.alloc(16 * 1024);
  PNG.copy(first);
  const rest = Buffer.alloc(16 * 1024);
  const write = () => {
    // Bounded even if the reader never stopped: 64 MiB, far past anything it may read.
    while (!res.destroyed && endlessSeen.sent < 64 * 1024 * 1024) {
      const chunk = endlessSeen.sent === 0 ? first : rest;
      endlessSeen.sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
  };
  res.on('close', () => (endlessSeen.closed = true));
  write();
}
let server: https.Server;
let base: string;
let cert: string;
const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-image-fetch-'));

beforeAll(async () => {
  // A throwaway self-signed certificate for 127.0.0.1, trusted only by these calls (`ca`).
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  ], { stdio: 'ignore' });
  cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
    if (req.url === '/moved') return void res.writeHead(302, { location: '/a.png' }).end();
    if (req.url === '/big') return void res.writeHead(200, { 'content-length': '2048' }).end(Buffer.alloc(2048));
    if (req.url === '/a.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/endless.png') return void endless(res);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const options = (over: Partial<ImageFetchOptions> = {}): ImageFetchOptions => ({
  timeoutMs: 2000,
  allowLoopback: true,
  maxBytes: 1024,
  headBytes: 16,
  classify: classifyAddress,
  ca: cert,
  ...over,
});

describe('fetchImage', () => {
  it('reads the bytes of an https image on an allowed address', async () => {
    expect(await fetchImage(`${base}/a.png`, options())).toEqual({ ok: true, head: PNG, size: PNG.length });
  });

  it('refuses loopback without OUTBOUND_ALLOW_LOOPBACK, private addresses and plain http before connecting', async () => {
    expect(await fetchImage(`${base}/a.png`, options({ allowLoopback: false }))).toEqual({ ok: false, error: expect.stringMatching(/loopback address/) });
    const resolve = async () => [{ address: '10.0.0.7', family: 4 }];
    expect(await fetchImage('https://images.internal/a.png', options({ resolve }))).toEqual({ ok: false, error: expect.stringMatching(/not resolve to a public/) });
    expect(await fetchImage('http://127.0.0.1/a.png', options())).toEqual({ ok: false, error: 'Only https URLs are fetched' });
  });

  it('follows no redirect, stops at the size cap and reports HTTP errors', async () => {
    expect(await fetchImage(`${base}/moved`, options())).toEqual({ ok: false, error: 'Redirect not followed (HTTP 302)' });
    expect(await fetchImage(`${base}/big`, options())).toEqual({ ok: false, error: 'Larger than 1024 bytes' });
    // A declared length within the cap: only the head is read, the size is the declared one.
    expect(await fetchImage(`${base}/big`, options({ maxBytes: 4096 }))).toEqual({ ok: true, head: Buffer.alloc(16), size: 2048 });
    expect(await fetchImage(`${base}/missing`, options())).toEqual({ ok: false, error: 'HTTP 404' });
  });

  it('reads only the head of an endless body, then closes the connection (security review 2, M-6)', async () => {
    const result = await fetchImage(`${base}/endless.png`, options({ maxBytes: 5 * 1024 * 1024 }));
    expect(result).toEqual({ ok: true, head: Buffer.concat([PNG, Buffer.alloc(4)]), size: null });
    for (let i = 0; i < 100 && !endlessSeen.closed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(endlessSeen.closed).toBe(true);
    // Before, the reader took up to the 5 MiB cap; now the sender is stopped after what socket buffers hold.
    expect(endlessSeen.sent).toBeLessThan(2 * 1024 * 1024);
  });

  it('reports an untrusted certificate or a name that does not resolve as an error, never a throw', async () => {
    expect((await fetchImage(`${base}/a.png`, options({ ca: undefined }))).ok).toBe(false);
    const resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await fetchImage('https://nowhere.example/a.png', options({ resolve }))).toEqual({ ok: false, error: 'Could not resolve nowhere.example: ENOTFOUND' });
  });
});
