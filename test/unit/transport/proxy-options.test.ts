// TRUST_PROXY (security review H2): the client address is the entry our own proxies appended, never a client-written one.
import http from 'node:http';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { proxyOptions } from '../../../src/transport/proxy-options.js';
import { envSchema } from '../../../src/config/env-schema.js';

/** The address Koa reports for a request from 127.0.0.1 carrying `xff`. */
function clientIp(hops: number, xff?: string): string {
  const app = new Koa(proxyOptions(hops));
  const req = Object.assign(new http.IncomingMessage(null as never), {
    headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    socket: { remoteAddress: '127.0.0.1' },
  });
  return app.createContext(req, new http.ServerResponse(req)).ip;
}

describe('client address behind trusted proxies', () => {
  it('TRUST_PROXY=1 takes the rightmost X-Forwarded-For entry: entries the client wrote change nothing', () => {
    expect(clientIp(1, '203.0.113.1, 198.51.100.7')).toBe('198.51.100.7');
    expect(clientIp(1, '203.0.113.99, 198.51.100.7')).toBe('198.51.100.7');
    expect(clientIp(1, '198.51.100.7')).toBe('198.51.100.7');
  });

  it('TRUST_PROXY=2 takes the entry the outer of two proxies appended', () => {
    expect(clientIp(2, 'forged, 198.51.100.9, 10.0.0.2')).toBe('198.51.100.9');
  });

  it('without TRUST_PROXY the header is ignored and the socket address is used', () => {
    expect(clientIp(0, '198.51.100.7')).toBe('127.0.0.1');
  });

  it('a request without the header is the socket address even behind a proxy', () => {
    expect(clientIp(1)).toBe('127.0.0.1');
  });

  it('TRUST_PROXY accepts unset/0/false (off), 1/true (one proxy) and a hop count; anything else stops the start', () => {
    const parse = (v: string | undefined) => envSchema.shape.TRUST_PROXY.safeParse(v);
    expect([undefined, '', '0', 'false', '1', 'true', '3'].map((v) => parse(v).data)).toEqual([0, 0, 0, 0, 1, 1, 3]);
    expect(parse('yes').success).toBe(false);
    expect(parse('-1').success).toBe(false);
  });
});
