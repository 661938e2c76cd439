// Test helper: an HTTP receiver whose answer per path the test scripts (by request count), recording every request.
import type http from 'node:http';
import { replyJson, startJsonServer, type JsonRequest } from './json-request-server.js';

/** An answer, or 'hang' to hold the request until `release` (or close). */
export type ScriptedReply = { status: number; body?: unknown } | 'hang';

export async function startScriptedReceiver() {
  const received: JsonRequest[] = [];
  const script = new Map<string, (n: number) => ScriptedReply>();
  const hanging: { path: string; res: http.ServerResponse }[] = [];
  const server = await startJsonServer((req, res) => {
    received.push(req);
    const n = received.filter((r) => r.path === req.path).length;
    const reply: ScriptedReply = (script.get(req.path) ?? ((): ScriptedReply => ({ status: 404 })))(n);
    if (reply === 'hang') hanging.push({ path: req.path, res });
    else replyJson(res, reply.status, reply.body);
  });
  return {
    url: server.url,
    received,
    /** The requests made on `path`, in order. */
    on: (path: string) => received.filter((r) => r.path === path),
    /** How `path` answers its n-th request (from 1); unscripted paths answer 404. */
    script: (path: string, fn: (n: number) => ScriptedReply) => void script.set(path, fn),
    /** Answers every request held on `path`. */
    release(path: string, status: number, body: unknown) {
      for (const h of hanging.filter((x) => x.path === path)) replyJson(h.res, status, body);
    },
    close: async () => {
      for (const h of hanging) h.res.destroy();
      await server.close();
    },
  };
}

export type ScriptedReceiver = Awaited<ReturnType<typeof startScriptedReceiver>>;
