// Fans order change notices out across nodes through Redis pub/sub (live views on any node see every change).
import type { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { OrderChange } from './order-runtime.js';
import { openRedisBroadcast } from '../../lib/redis-broadcast.js';

const CHANNEL = 'order-changes';

/**
 * Publishes this node's changes (emitted on `changes` with `local: true`) and re-emits other
 * nodes' changes on the same emitter. Returns a function that unsubscribes.
 */
export async function bridgeChangesToRedis(changes: EventEmitter, publisher: Redis, prefix: string): Promise<() => Promise<void>> {
  const broadcast = await openRedisBroadcast(publisher, `${prefix}${CHANNEL}`, (body) => {
    try {
      changes.emit('change', JSON.parse(body) as OrderChange);
    } catch {
      /* a foreign message on our channel: ignore it */
    }
  });
  const onLocal = (change: OrderChange) => broadcast.send(JSON.stringify(change));
  changes.on('local', onLocal);
  return async () => {
    changes.off('local', onLocal);
    await broadcast.close();
  };
}
