// Runs timers of handler kinds (webhook delivery attempts: network I/O up to the outbound timeout) beside the
// scheduler's fire slots, so a slow or hanging receiver never holds back an order's timer.

export class HandlerLane {
  private readonly running = new Map<string, Promise<void>>();

  /**
   * @param limit most runs in flight; past it `submit` waits for its run (the scheduler slot it holds is the back-pressure)
   * @param onError receives a run's failure (its timer stays pending or its guard timer re-fires it later)
   */
  constructor(
    private readonly limit: number,
    private readonly onError: (err: unknown, timerId: string) => void,
  ) {}

  /** Runs in flight. */
  get size(): number {
    return this.running.size;
  }

  /** Starts `run` for `timerId` and returns; an id already running here is not started twice. */
  async submit(timerId: string, run: () => Promise<void>): Promise<void> {
    if (this.running.has(timerId)) return;
    const p = run()
      .catch((err) => this.onError(err, timerId))
      .finally(() => this.running.delete(timerId));
    this.running.set(timerId, p);
    if (this.running.size > this.limit) await p;
  }

  /**
   * Waits for the runs in flight, at most `graceMs`. A run still going then is abandoned: its attempt
   * was claimed durably first, so its guard timer repeats it after a restart (at least once, same id).
   */
  async drain(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([...this.running.values()]), grace]);
    clearTimeout(timer);
  }
}
