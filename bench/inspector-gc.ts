// Forces a full garbage collection in a service started with --inspect, through the inspector protocol,
// so memory readings compare retained memory rather than whatever garbage the last requests left.
import WebSocket from 'ws';

/** The inspector's WebSocket URL from what the process printed ("Debugger listening on ws://…"). */
export function inspectorUrl(output: string): string | null {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1] ?? null;
}

/** Runs HeapProfiler.collectGarbage (twice: weak references need a second pass) and resolves when done. */
export async function collectGarbage(url: string): Promise<void> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    let id = 0;
    const call = (method: string) =>
      new Promise<void>((resolve, reject) => {
        const mine = ++id;
        const onMessage = (raw: WebSocket.RawData) => {
          const msg = JSON.parse(raw.toString()) as { id?: number; error?: { message: string } };
          if (msg.id !== mine) return;
          ws.off('message', onMessage);
          if (msg.error) reject(new Error(msg.error.message));
          else resolve();
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ id: mine, method }));
      });
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
  } finally {
    ws.close();
  }
}
