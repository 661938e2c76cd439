// Serialises work per key in-process, so waiters on one order queue here and not on pool connections.

export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier task for `key` settled; the key is forgotten once idle. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const task = previous.then(fn, fn);
    const tail = task.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return task;
  }

  /** Keys with work queued or running: the live per-order state of the process (0 when idle). */
  get size(): number {
    return this.tails.size;
  }
}
