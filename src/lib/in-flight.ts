// Work started in the background and not awaited by its caller (a first delivery attempt): tracked to wait for, bounded on stop.
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  /** Keeps `p` until it settles; a rejection is handed to `onError` (the caller's log line), never left unhandled. */
  track(p: Promise<unknown>, onError: (err: unknown) => void): void {
    const tracked = p.catch(onError).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Resolves once everything tracked so far (and anything tracked meanwhile) has settled. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * Waits for the work in flight, at most `graceMs`: an attempt still hanging then (a receiver that does
   * not answer) must not hold a shutdown for the outbound timeout; its committed claim redoes it later.
   */
  async settleWithin(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
}
