// Test helper: a local HTTP server that reads each request's body (JSON when it parses) before the test's handler answers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body text (what a signature covers). */
  raw: string;
  /** The parsed body, or null when empty or not JSON. */
  body: any;
}

function parse(raw: string): unknown {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/** Listens on 127.0.0.1 (a free port); `handle` answers (or holds) each request once its body is read. */
export async function startJsonServer(handle: (req: JsonRequest, res: http.ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      handle({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, raw, body: parse(raw) }, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers `status` with a JSON body (none when undefined). */
export function replyJson(res: http.ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
}
