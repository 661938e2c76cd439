// Load shapes: a closed loop of C workers over N jobs, and an open loop that starts jobs at a fixed rate.

/** Runs `job(i)` for i in [0, total) with at most `concurrency` in flight; rejects on the first failure. */
export async function closedLoop(total: number, concurrency: number, job: (i: number) => Promise<void>, onDone?: (done: number) => void): Promise<void> {
  let next = 0;
  let done = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null) {
      const i = next++;
      if (i >= total) return;
      try {
        await job(i);
      } catch (err) {
        failure ??= err;
        return;
      }
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, total)) }, worker));
  if (failure !== null) throw failure;
}

/**
 * Starts `job(i)` at `ratePerSecond` for `total` jobs, whatever the latency of earlier ones
 * (an open loop: a slow service builds a queue instead of slowing the arrivals, so latency
 * percentiles include queueing). Resolves when every job finished; rejects on the first failure.
 */
export async function openLoop(total: number, ratePerSecond: number, job: (i: number) => Promise<void>, onDone?: (done: number) => void): Promise<void> {
  const interval = 1000 / ratePerSecond;
  const started = performance.now();
  const running: Promise<void>[] = [];
  let done = 0;
  let failure: unknown = null;
  for (let i = 0; i < total && failure === null; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(
      job(i).then(
        () => onDone?.(++done),
        (err) => {
          failure ??= err;
        },
      ),
    );
  }
  await Promise.all(running);
  if (failure !== null) throw failure;
}
