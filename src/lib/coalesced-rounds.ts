// Background rounds woken after commits: wake-ups within a short window share one round, a wake during a round runs one more, a poll catches the rest.

export interface CoalescedRoundsOptions {
  /** One round of work (until nothing is left, or the rounds stop); a failure goes to onError. */
  round(): Promise<unknown>;
  onError(err: unknown): void;
  /** Safety poll for work committed by other nodes or missed wake-ups. */
  pollMs: number;
  /** How long a wake-up waits before its round, so the commits made meanwhile share it. */
  coalesceMs: number;
  /** Rounds are skipped while false (work that pauses with another loop). */
  active?(): boolean;
}

export class CoalescedRounds {
  private running: Promise<void> | null = null;
  private pendingWake: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly options: CoalescedRoundsOptions) {}

  /** False before start() and after stop(). */
  get started(): boolean {
    return !this.stopped;
  }

  /** The round under way, if any (a drain waits for it: it holds its rows locked). */
  get current(): Promise<void> | null {
    return this.running;
  }

  start(): void {
    this.stopped = false;
    this.wake();
    this.poll = setInterval(() => this.wake(), this.options.pollMs);
    this.poll.unref();
  }

  /** Stops waking and polling, and waits for the round under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.pendingWake) clearTimeout(this.pendingWake);
    this.poll = this.pendingWake = null;
    await this.running;
  }

  /** Asks for a round soon (after a commit); wake-ups within coalesceMs share one, a wake during a round runs another after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.pendingWake) return;
    this.pendingWake = setTimeout(() => {
      this.pendingWake = null;
      this.round();
    }, this.options.coalesceMs);
  }

  private round(): void {
    if (this.stopped || (this.options.active && !this.options.active())) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.options
      .round()
      .then(
        () => undefined,
        (err: unknown) => this.options.onError(err),
      )
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }
}
