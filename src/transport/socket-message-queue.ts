// One websocket's messages handled one at a time, in order, with a bound on those waiting; dropped when the socket closes.

export class SocketMessageQueue {
  private tail: Promise<void> = Promise.resolve();
  private unanswered = 0;
  private dropped = false;

  /**
   * @param max messages accepted but not yet answered (the running one included)
   * @param onError a handler's throw (logged by the surface); the queue carries on with the next message
   */
  constructor(
    private readonly max: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /**
   * Queues `handle` behind the messages before it. False when `max` are already unanswered: the client
   * is flooding and the surface closes the socket (1008). After `drop` nothing new is queued.
   */
  push(handle: () => Promise<void>): boolean {
    if (this.dropped) return true;
    if (this.unanswered >= this.max) return false;
    this.unanswered++;
    this.tail = this.tail
      .then(() => (this.dropped ? undefined : handle()))
      .catch(this.onError)
      .finally(() => void this.unanswered--);
    return true;
  }

  /** The socket closed: queued messages that have not started are never run (the running one finishes). */
  drop(): void {
    this.dropped = true;
  }
}
