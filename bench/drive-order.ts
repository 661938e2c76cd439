// Drives one marketplace order over HTTP: POST /orders, then each seller accepts (POST …/events).
import type { BenchClient } from './http-client.js';
import type { LatencyRecorder } from './latency-recorder.js';
import { marketplaceOrderBody, orderLines, sellerAccepts, THIRD_PARTY_SELLERS } from './marketplace-order.js';

export interface DriveRecorders {
  create: LatencyRecorder;
  event: LatencyRecorder;
}

export interface DriveOptions {
  /** The client for each request of the order (0 = the start, 1.. = the events); two nodes split them. */
  pick: (requestNo: number) => BenchClient;
  /** SKUs per seller class (see orderLines). */
  skus: number;
  /** Units ordered per SKU so far (the stock check compares it with what left the shelves). */
  tally: Map<string, number>;
  /** Send both seller answers at once (they race for the order) instead of one after the other. */
  concurrentEvents?: boolean;
}

/** Starts order `<prefix><n>` and has both sellers accept; returns the order id. */
export async function driveMarketplaceOrder(n: number, externalPrefix: string, rec: DriveRecorders, options: DriveOptions): Promise<string> {
  const lines = orderLines(n, options.skus);
  const body = marketplaceOrderBody(`${externalPrefix}${n}`, lines);
  const { orderId } = await rec.create.time(() => options.pick(0).expect<{ orderId: string }>(201, 'POST', '/api/v1/orders', body));
  for (const l of lines) options.tally.set(l.sku, (options.tally.get(l.sku) ?? 0) + l.qty);
  const answer = async (sellerId: string, i: number) => {
    const res = await rec.event.time(() =>
      options.pick(i + 1).expect<{ delivered: boolean; nodeId?: string }>(200, 'POST', `/api/v1/orders/${orderId}/events`, sellerAccepts(sellerId)),
    );
    if (!res.delivered) throw new Error(`seller.responded from ${sellerId} was not delivered to ${orderId}`);
  };
  if (options.concurrentEvents) await Promise.all(THIRD_PARTY_SELLERS.map(answer));
  else for (const [i, s] of THIRD_PARTY_SELLERS.entries()) await answer(s, i);
  return orderId;
}
