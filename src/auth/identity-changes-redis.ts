// Carries identity changes between nodes over Redis pub/sub, so every node's credential cache forgets on a change anywhere.
import type { Redis } from 'ioredis';
import type { IdentityChanges } from './identity-changes.js';
import { openRedisBroadcast } from '../lib/redis-broadcast.js';

const CHANNEL = 'identity-changes';

/**
 * Publishes this node's announcements on `<prefix>identity-changes` and passes other nodes' on to
 * `changes.received()`. A message carries nothing but its sender: a change clears the whole
 * cache (identity writes are rare). When the subscriber reconnects, messages may have been missed
 * while it was away, so that counts as a change too. Returns a function that unsubscribes.
 */
export async function bridgeIdentityChangesToRedis(changes: IdentityChanges, publisher: Redis, prefix: string): Promise<() => Promise<void>> {
  const broadcast = await openRedisBroadcast(
    publisher,
    `${prefix}${CHANNEL}`,
    () => changes.received(),
    () => changes.received(),
  );
  changes.broadcastWith(() => broadcast.send(''));
  return async () => {
    changes.broadcastWith(null);
    await broadcast.close();
  };
}
