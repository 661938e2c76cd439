// Fans order change notices out across nodes through Redis pub/sub (live views on any node see every change).
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { OrderChange } from './order-runtime.js';

const CHANNEL = 'order-changes';

/**
 * Publishes this node's changes (emitted on `changes` with `local: true`) and re-emits other
 * nodes' changes on the same emitter. Returns a function that unsubscribes.
 */
export async function bridgeChangesToRedis(changes: EventEmitter, publisher: Redis, prefix: string): Promise<() => Promise<void>> {
  const origin = randomUUID();
  const channel = `${prefix}${CHANNEL}`;
  const subscriber = publisher.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.subscribe(channel);
  subscriber.on('message', (_ch: string, message: string) => {
    try {
      const { origin: from, change } = JSON.parse(message) as { origin: string; change: OrderChange };
      if (from !== origin) changes.emit('change', change);
    } catch {
      /* a foreign message on our channel: ignore it */
    }
  });
  const onLocal = (change: OrderChange & { remote?: boolean }) => {
    void publisher.publish(channel, JSON.stringify({ origin, change })).catch(() => undefined);
  };
  changes.on('local', onLocal);
  return async () => {
    changes.off('local', onLocal);
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
}
