// One outbound POST: refused before connecting for non-public addresses; pinned to the checked address; timeout;
// no redirects (issue 5 SSRF policy; spec "Delivery format").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postOutbound, sendOutbound } from '../../../src/webhooks/outbound-post.js';

let server: http.Server;
let port: number;
const hits: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    if (req.url === '/hang') return;
    if (req.url === '/moved') return void res.writeHead(301, { location: '/ok' }).end();
    res.writeHead(req.url === '/ok' ? 204 : 503).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const opts = (extra: Partial<Parameters<typeof postOutbound>[3]> = {}) => ({ timeoutMs: 300, allowLoopback: true, ...extra });

describe('postOutbound', () => {
  it('any 2xx is ok; other statuses are failures with the status', async () => {
    expect(await postOutbound(`http://127.0.0.1:${port}/ok`, {}, '{}', opts())).toEqual({ ok: true, status: 204, error: null });
    expect(await postOutbound(`http://127.0.0.1:${port}/bad`, {}, '{}', opts())).toEqual({ ok: false, status: 503, error: 'HTTP 503' });
  });

  it('does not follow redirects', async () => {
    const before = hits.length;
    expect(await postOutbound(`http://127.0.0.1:${port}/moved`, {}, '{}', opts())).toEqual({ ok: false, status: 301, error: 'Redirect not followed (HTTP 301)' });
    expect(hits.slice(before)).toEqual([`127.0.0.1:${port} /moved`]);
  });

  it('cuts a receiver that does not answer at the timeout', async () => {
    const started = Date.now();
    const res = await postOutbound(`http://127.0.0.1:${port}/hang`, {}, '{}', opts({ timeoutMs: 200 }));
    expect(res).toEqual({ ok: false, status: null, error: 'No answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('refuses loopback without the testing switch, before connecting', async () => {
    const before = hits.length;
    expect((await postOutbound(`http://127.0.0.1:${port}/ok`, {}, '{}', opts({ allowLoopback: false }))).error).toMatch(/never reached/);
    const viaName = await postOutbound(`https://localhost:${port}/ok`, {}, '{}', opts({ allowLoopback: false }));
    expect(viaName.error).toMatch(/loopback address/);
    expect(hits.length).toBe(before);
  });

  it('refuses a host that resolves to a private or link-local address (any of its addresses), without naming the address (review L3)', async () => {
    for (const addresses of [[{ address: '10.0.0.7', family: 4 }], [{ address: '169.254.169.254', family: 4 }], [{ address: '93.184.216.34', family: 4 }, { address: 'fd00::1', family: 6 }]]) {
      const res = await postOutbound('https://hooks.example.com/x', {}, '{}', opts({ allowLoopback: false, resolve: async () => addresses }));
      expect(res.ok).toBe(false);
      expect(res.error).toBe('Refused: hooks.example.com does not resolve to a public internet address');
      for (const a of addresses) expect(res.error).not.toContain(a.address);
    }
  });

  it('connects to the address it checked, not to a second lookup (DNS rebinding)', async () => {
    let lookups = 0;
    const before = hits.length;
    const res = await postOutbound(`http://localhost:${port}/ok`, {}, '{}', opts({
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    }));
    expect(res.ok).toBe(true);
    expect(lookups).toBe(1);
    expect(hits.slice(before)).toEqual([`localhost:${port} /ok`]);
  });

  it('an unresolvable host is a failure, not a throw', async () => {
    const res = await postOutbound('https://nothing.invalid/x', {}, '{}', opts({ resolve: async () => { throw new Error('ENOTFOUND'); } }));
    expect(res).toEqual({ ok: false, status: null, error: 'Could not resolve nothing.invalid: ENOTFOUND' });
  });

  it('a request Node refuses to build (a header value with CR/LF) is an unsendable answer, not a throw, and nothing reaches the receiver (review 2, L-1)', async () => {
    hits.length = 0;
    const res = await sendOutbound('POST', `http://127.0.0.1:${port}/ok`, { 'x-a': 'a\r\nInjected: 1' }, '{}', { ...opts(), readBody: true });
    expect(res).toMatchObject({ ok: false, status: null, unsendable: true, error: expect.stringMatching(/^The request cannot be sent: /) });
    expect(hits).toEqual([]);
  });
});
