// Polling until a condition holds, for tests that watch a child process or a background worker (no injected clock reaches them).

/** Polls `check` every `everyMs` until it gives a truthy value and returns it, failing with `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
