// Security review 2, M-6 (contract 11): one HTTP request fetches at most 8 assess_order images in all, an MCP batch included;
// the rest are reported in basis as not fetched; an endless image body is read only up to its head.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startBody, startOrdersService, tokenFor } from '../orders/orders-support.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-mcp-images-'));
const defaultCAs = tls.getCACertificates('default');
let t: TestService;
let images: https.Server;
let base: string;
let viewer: string;
let orderId: string;
/** What the image listener saw: GETs, and per endless body the bytes it managed to send and whether the reader hung up. */
const seen = { gets: 0, endless: [] as { sent: number; closed: boolean }[] };

/** A PNG signature, then 16 KiB chunks without end (no Content-Length), each written once the last drained; 64 MiB at most. */
function endless(res: ServerResponse): void {
  const record = { sent: 0, closed: false };
  seen.endless.push(record);
  res.writeHead(200, { 'content-type': 'image/png' });
  const first = Buffer.concat([PNG, Buffer.alloc(16 * 1024 - PNG.length)]);
  const rest = Buffer.alloc(16 * 1024);
  res.on('close', () => (record.closed = true));
  const write = () => {
    while (!res.destroyed && record.sent < 64 * 1024 * 1024) {
      const chunk = record.sent === 0 ? first : rest;
      record.sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
  };
  write();
}

beforeAll(async () => {
  // A throwaway self-signed certificate for 127.0.0.1, trusted by this process (the service runs in it) for this file only.
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  ], { stdio: 'ignore' });
  const cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  tls.setDefaultCACertificates([...defaultCAs, cert]);
  images = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
    seen.gets++;
    if (req.url?.startsWith('/endless')) return endless(res);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) }).end(PNG);
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(images.address() as AddressInfo).port}`;

  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  await publishFlow(t, 'image-flow', graphs.approval);
  const started = await t.call('POST', '/api/v1/orders', startBody('image-flow'));
  orderId = started.body.orderId;
  viewer = await tokenFor(t, 'viewer', 'mcp-images');
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => images?.close(r));
  tls.setDefaultCACertificates(defaultCAs);
  rmSync(dir, { recursive: true, force: true });
});

/** One POST /mcp carrying a JSON-RPC batch of assess_order calls; the results by id. */
async function batch(calls: number, imageUrl: (call: number, image: number) => string): Promise<any[]> {
  const body = Array.from({ length: calls }, (_, i) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: {
      name: 'assess_order',
      arguments: { orderId, questions: [{ type: 'noul', question: 'Will it complete?' }], images: [0, 1, 2, 3].map((k) => imageUrl(i, k)) },
    },
  }));
  const res = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  // JSON, or server-sent events whose data lines are the JSON-RPC answers (one, or an array).
  const messages = res.headers.get('content-type')?.includes('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data: ')).flatMap((l) => JSON.parse(l.slice(6)))
    : [JSON.parse(text)].flat();
  return messages.sort((a, b) => a.id - b.id);
}

/** Every image note of every answered call. */
const notesOf = (answers: any[]) =>
  answers.flatMap((m) => {
    expect(m.result?.isError, JSON.stringify(m).slice(0, 500)).toBeFalsy();
    return m.result.structuredContent.answers[0].basis.images as { status: string; detail?: string }[];
  });

describe('assess_order image fetches per HTTP request (contract 11)', () => {
  it('an MCP batch of 25 calls x 4 image URLs makes at most 8 GETs; the other 92 images are reported as not fetched', async () => {
    seen.gets = 0;
    const answers = await batch(25, (i, k) => `${base}/img-${i}-${k}.png`);
    expect(answers).toHaveLength(25);
    const notes = notesOf(answers);
    expect(notes).toHaveLength(100);
    expect(seen.gets).toBeLessThanOrEqual(8);
    expect(notes.filter((n) => n.status === 'read')).toHaveLength(seen.gets);
    const skipped = notes.filter((n) => n.status === 'not_fetched');
    expect(skipped).toHaveLength(100 - seen.gets);
    expect(skipped[0].detail).toMatch(/at most 8 per request/);
    expect(answers.some((m) => /not fetched/.test(m.result.structuredContent.answers[0].basis.summary))).toBe(true);
    // The budget is per request: the next request fetches again.
    seen.gets = 0;
    await batch(1, (i, k) => `${base}/again-${k}.png`);
    expect(seen.gets).toBe(4);
  });

  it('endless image bodies are read only up to their head: the reader hangs up and the sender is stopped early', async () => {
    seen.endless = [];
    const answers = await batch(2, (i, k) => `${base}/endless-${i}-${k}.png`);
    const read = notesOf(answers).filter((n) => n.status === 'read');
    expect(read).toHaveLength(8);
    expect(read[0]).toMatchObject({ format: 'png' });
    expect(read[0]).not.toHaveProperty('bytes');
    for (let i = 0; i < 100 && seen.endless.some((e) => !e.closed); i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen.endless).toHaveLength(8);
    for (const e of seen.endless) {
      expect(e.closed).toBe(true);
      // Before the fix each was read to the 5 MiB cap; now a sender gets no further than what socket buffers hold.
      expect(e.sent).toBeLessThan(2 * 1024 * 1024);
    }
  });
});
