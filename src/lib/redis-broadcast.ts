// One node's messages to the others over a Redis pub/sub channel, each node skipping its own.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface RedisBroadcast {
  /** Sends `body` to the other nodes (best effort: a Redis failure is dropped, as pub/sub would drop it). */
  send(body: string): void;
  /** Unsubscribes and closes the subscriber connection. */
  close(): Promise<void>;
}

/**
 * Subscribes a duplicate of `publisher` to `channel`; `onMessage` gets every other node's body
 * (a message carries this node's random origin id, so a node never hears itself) and
 * `onReconnect` each reconnection of the subscriber after the first connection (messages may have
 * been missed meanwhile; ioredis re-subscribes by itself).
 */
export async function openRedisBroadcast(
  publisher: Redis,
  channel: string,
  onMessage: (body: string) => void,
  onReconnect?: () => void,
): Promise<RedisBroadcast> {
  const origin = randomUUID();
  const subscriber = publisher.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.subscribe(channel);
  subscriber.on('message', (_ch: string, message: string) => {
    const cut = message.indexOf('\n');
    const from = cut < 0 ? message : message.slice(0, cut);
    if (from !== origin) onMessage(cut < 0 ? '' : message.slice(cut + 1));
  });
  if (onReconnect) subscriber.on('ready', onReconnect);
  return {
    send: (body) => void publisher.publish(channel, `${origin}\n${body}`).catch(() => undefined),
    close: async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
