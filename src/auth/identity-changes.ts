// Announces committed identity writes (a token revoked; an owner's role, enabled flag, password or two-factor changed) to this node and the others.
/**
 * What the in-process caches of credentials listen to. A service calls `announce` after the
 * write committed and before it answers, so this node's caches forget at once; the broadcast (the
 * Redis bridge, when the service has Redis) carries it to the other nodes, which call `received`.
 * Without Redis there is one node, and nothing to carry.
 */
export class IdentityChanges {
  private readonly listeners: (() => void)[] = [];
  private broadcast: (() => void) | null = null;

  /** Runs `listener` on every change, this node's or another's. */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** How this node's changes leave it; null to stop. */
  broadcastWith(send: (() => void) | null): void {
    this.broadcast = send;
  }

  /** This node committed a change: its listeners now, then the other nodes. */
  announce(): void {
    this.received();
    this.broadcast?.();
  }

  /** Another node committed a change (or changes may have been missed: Redis reconnected). */
  received(): void {
    for (const listener of this.listeners) listener();
  }
}
