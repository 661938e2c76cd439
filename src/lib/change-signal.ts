// A "something changed" flag a loop can sleep on: woken at once by a change, else at its deadline; no change is lost.
export class ChangeSignal {
  private changed: boolean;
  private wake: (() => void) | null = null;

  /** `startChanged`: the loop's first wait returns at once (a change may have come before the watch began). */
  constructor(startChanged = false) {
    this.changed = startChanged;
  }

  /** Records a change and wakes a waiting loop. */
  notify(): void {
    this.changed = true;
    this.wake?.();
  }

  /** Returns at once when a change came since the last wait, else at the next change or after `ms`; then clears the flag. */
  async wait(ms: number): Promise<void> {
    if (!this.changed && ms > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    this.wake = null;
    this.changed = false;
  }
}
