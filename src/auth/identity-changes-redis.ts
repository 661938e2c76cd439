// Carries identity changes between nodes over Redis pub/sub, so every node's credential cache forgets on a change anywhere.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { IdentityChanges } from './identity-changes.js';

const CHANNEL = 'identity-changes';

/**
 * Publishes this node's announcements on `<prefix>identity-changes` and passes other nodes' on to
 * `changes.received()`. A message carries only the sending node's id: a change clears the whole
 * cache (identity writes are rare). When the subscriber reconnects, messages may have been missed
 * while it was away, so that counts as a change too. Returns a function that unsubscribes.
 */
export async function bridgeIdentityChangesToRedis(changes: IdentityChanges, publisher: Redis, prefix: string): Promise<() => Promise<void>> {
  const origin = randomUUID();
  const channel = `${prefix}${CHANNEL}`;
  const subscriber = publisher.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.subscribe(channel);
  subscriber.on('message', (_ch: string, message: string) => {
    if (message !== origin) changes.received();
  });
  // 'ready' after the first connection is a reconnect (ioredis re-subscribes by itself).
  subscriber.on('ready', () => changes.received());
  changes.broadcastWith(() => void publisher.publish(channel, origin).catch(() => undefined));
  return async () => {
    changes.broadcastWith(null);
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
}
