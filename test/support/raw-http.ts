// A raw HTTP/1.1 exchange over a TCP socket: bytes no HTTP client library would send (bad encodings, odd headers, upgrades).
import net from 'node:net';

export interface RawResponse {
  /** Status code of the first response line; null when the server closed without answering. */
  status: number | null;
  /** Everything received, as latin1 text. */
  text: string;
  /** The response body (after the blank line). */
  body: string;
  /** True when the server closed the connection (end or reset) before `waitMs` ran out. */
  closed: boolean;
}

export interface RawOptions {
  /** How long to wait for the server to answer and close (default 5 s). */
  waitMs?: number;
  /** Resolve once a 101 status line and its headers have arrived (the socket is then destroyed). */
  stopAtSwitch?: boolean;
  /** Reset the connection (TCP RST) this long after writing, before any answer. */
  resetAfterMs?: number;
}

/** Builds request text from a request line and headers (values sent as latin1 bytes, unvalidated). */
export function rawRequest(line: string, headers: Record<string, string>, body = ''): Buffer {
  const head = [line, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), Buffer.from(body, 'utf8')]);
}

/** The standard headers of a websocket upgrade request. */
export const UPGRADE_HEADERS = {
  Connection: 'Upgrade',
  Upgrade: 'websocket',
  'Sec-WebSocket-Version': '13',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

/** Sends `request` to 127.0.0.1:`port` and collects the answer until the server closes or `waitMs` passes. */
export function rawExchange(port: number, request: Buffer, options: RawOptions = {}): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const sep = text.indexOf('\r\n\r\n');
      resolve({ status: status ? Number(status[1]) : null, text, body: sep < 0 ? '' : text.slice(sep + 4), closed });
    };
    const timer = setTimeout(() => finish(false), options.waitMs ?? 5_000);
    socket.on('data', (c) => {
      chunks.push(c);
      if (options.stopAtSwitch && /^HTTP\/1\.1 101[^]*\r\n\r\n/.test(Buffer.concat(chunks).toString('latin1'))) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(request);
    if (options.resetAfterMs !== undefined) setTimeout(() => (socket.resetAndDestroy(), finish(true)), options.resetAfterMs);
  });
}

/** The server's count of open connections (sockets it has not closed yet, upgraded ones included until they close). */
export function openConnections(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}
