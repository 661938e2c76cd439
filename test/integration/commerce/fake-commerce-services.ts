// A fake payment gateway and carrier over real HTTP, implementing the JSON contract of docs/integrations.md,
// recording every request; tests script failures (a decline, a failing capture) by amount.
import { replyJson, startJsonServer, type JsonRequest } from '../../support/json-request-server.js';

export type ReceivedRequest = JsonRequest;

type Reply = { status: number; body: unknown };

interface Authorization {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'voided';
}

/** Payments under `/pay`, the carrier under `/ship`; a repeated Idempotency-Key gets the first answer again, as real gateways do. */
export async function startFakeCommerceServices() {
  const received: ReceivedRequest[] = [];
  const answered = new Map<string, Reply>();
  const authorizations = new Map<string, Authorization>();
  const charges = new Map<string, { id: string; orderId: string; amount: number; refunded: number }>();
  const shipments = new Map<string, { id: string; orderId: string; status: 'booked' | 'cancelled' }>();
  /** Amounts (minor units) whose authorization the gateway declines (402), and whose authorization's capture fails (503). */
  const declineAmounts = new Set<number>();
  const failCaptureAmounts = new Set<number>();
  /** Shipping services the carrier refuses to book (422). */
  const refuseServices = new Set<string>();
  let seq = 0;
  const next = (prefix: string) => `${prefix}_${++seq}`;

  function route(method: string, path: string, body: any): Reply {
    if (method !== 'POST') return { status: 405, body: { error: 'method_not_allowed' } };
    let m: RegExpExecArray | null;
    if (path === '/pay/authorizations') {
      if (declineAmounts.has(body.amount)) return { status: 402, body: { error: 'card_declined', message: 'Insufficient funds' } };
      const a: Authorization = { id: next('fa'), orderId: body.orderId, amount: body.amount, currency: body.currency, status: 'authorized' };
      authorizations.set(a.id, a);
      return { status: 201, body: { id: a.id } };
    }
    if ((m = /^\/pay\/authorizations\/([^/]+)\/(capture|void)$/.exec(path))) {
      const a = authorizations.get(decodeURIComponent(m[1]));
      if (!a) return { status: 404, body: { error: 'not_found' } };
      if (m[2] === 'void') {
        if (a.status !== 'authorized') return { status: 409, body: { error: `authorization is ${a.status}` } };
        a.status = 'voided';
        return { status: 200, body: { id: a.id, status: 'voided' } };
      }
      if (failCaptureAmounts.has(a.amount)) return { status: 503, body: { error: 'unavailable', message: 'Processor busy' } };
      if (a.status !== 'authorized' || body.amount > a.amount) return { status: 409, body: { error: 'not capturable' } };
      a.status = 'captured';
      const c = { id: next('fc'), orderId: a.orderId, amount: body.amount, refunded: 0 };
      charges.set(c.id, c);
      return { status: 200, body: { id: c.id } };
    }
    if (path === '/pay/charges') {
      if (declineAmounts.has(body.amount)) return { status: 402, body: { error: 'card_declined' } };
      const c = { id: next('fc'), orderId: body.orderId, amount: body.amount, refunded: 0 };
      charges.set(c.id, c);
      return { status: 201, body: { id: c.id } };
    }
    if (path === '/pay/refunds') {
      const out = [];
      for (const part of body.refunds) {
        const c = charges.get(part.chargeId);
        if (!c || c.refunded + part.amount > c.amount) return { status: 422, body: { error: 'not refundable' } };
        c.refunded += part.amount;
        out.push({ id: next('fr') });
      }
      return { status: 201, body: { refunds: out } };
    }
    if (path === '/ship/shipments') {
      if (refuseServices.has(body.service)) return { status: 422, body: { error: 'service_unavailable', message: `No ${body.service} service to this address` } };
      const booked = body.parcels.map(() => {
        const s = { id: next('fs'), orderId: body.orderId, status: 'booked' as const };
        shipments.set(s.id, s);
        return { id: s.id, carrier: body.service === 'courier' ? 'Local courier' : 'Demo Parcel', trackingNumber: `FK${seq}` };
      });
      return { status: 201, body: { shipments: booked } };
    }
    if (path === '/ship/shipments/cancel') {
      for (const id of body.shipments) {
        const s = shipments.get(id);
        if (!s) return { status: 404, body: { error: `unknown shipment ${id}` } };
        s.status = 'cancelled';
      }
      return { status: 200, body: { cancelled: body.shipments } };
    }
    return { status: 404, body: { error: 'not_found' } };
  }

  const server = await startJsonServer((req, res) => {
    received.push(req);
    const key = `${req.path}\n${String(req.headers['idempotency-key'] ?? '')}`;
    let reply = answered.get(key);
    if (!reply) {
      reply = route(req.method, req.path, req.body);
      // Only settled answers are kept for a repeat: a 5xx may pass on the next attempt.
      if (reply.status < 500) answered.set(key, reply);
    }
    replyJson(res, reply.status, reply.body);
  });
  const url = server.url;
  return {
    paymentsUrl: `${url}/pay`,
    carrierUrl: `${url}/ship`,
    received,
    authorizations,
    charges,
    shipments,
    declineAmounts,
    failCaptureAmounts,
    refuseServices,
    /** The requests made for one order (bodies naming it, or naming its gateway objects). */
    forOrder(orderId: string): ReceivedRequest[] {
      const ids = new Set([...authorizations.values()].filter((a) => a.orderId === orderId).map((a) => a.id));
      for (const s of shipments.values()) if (s.orderId === orderId) ids.add(s.id);
      return received.filter((r) => r.body?.orderId === orderId || [...ids].some((id) => r.path.includes(`/${id}/`)));
    },
    close: () => server.close(),
  };
}

export type FakeCommerceServices = Awaited<ReturnType<typeof startFakeCommerceServices>>;
