// assessOrder (REST, and the agents' assess_order of contract section 11): typed questions about one order answered with probabilities, without a model.
import { defineOperation } from '../operation.js';
import type { Queryable } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import { classifyAddress } from '../../webhooks/address-policy.js';
import { assessOrderInputSchema, assessOrderOutputSchema } from '../../orders/assessment-schemas.js';
import { readAssessedOrder, readComparableOrders, readComparableSellerOrders } from '../../orders/assessment-evidence.js';
import { readAssessmentImages } from '../../orders/assessment-images.js';
import { fetchImage } from '../../orders/image-fetch.js';
import { IMAGE_HEAD_BYTES, IMAGE_MAX_BYTES } from '../../orders/image-bytes.js';
import { ImageFetchLimits } from '../../orders/image-fetch-limits.js';
import { callerKey } from '../../auth/caller-key.js';
import { assessOrder } from '../../orders/order-assessment.js';

export interface AssessOrderDeps {
  db: Queryable;
  clock: Clock;
  /** OUTBOUND_ALLOW_LOOPBACK: image URLs on loopback may be fetched (testing only). */
  allowLoopback: boolean;
  /** OUTBOUND_TIMEOUT_MS: the most one image fetch may take. */
  timeoutMs: number;
  /** The fetch limits (tests pass their own to watch them); one per service otherwise. */
  limits?: ImageFetchLimits;
}

/** REST's input: the order from the path (`id`), the rest from the body; the agents' tool names it `orderId`. */
export const assessOrderRestInput = assessOrderInputSchema.omit({ orderId: true }).extend({ id: assessOrderInputSchema.shape.orderId });

/** One question of each kind: the example of the REST operation and of the agents' assess_order. */
export const ASSESS_EXAMPLE_QUESTIONS = [
  { id: 'done', type: 'noul' as const, question: 'Will this order complete?' },
  { type: 'choice' as const, question: 'How will it end?', options: ['completed', 'cancelled', 'failed'] },
  { type: 'score' as const, question: 'How risky is it?', levels: ['low', 'medium', 'high'] },
];

export function assessOrderOperation(deps: AssessOrderDeps) {
  const get = (url: string) =>
    fetchImage(url, { timeoutMs: deps.timeoutMs, allowLoopback: deps.allowLoopback, maxBytes: IMAGE_MAX_BYTES, headBytes: IMAGE_HEAD_BYTES, classify: classifyAddress });
  const limits = deps.limits ?? new ImageFetchLimits();
  return defineOperation({
    name: 'assessOrder',
    summary: 'Ask typed questions about one order and get probabilities with what they rest on',
    description:
      'Each question is `noul` (yes/no), `choice` (2 to 255 options) or `score` (2 to 10 ordered levels, lowest first). ' +
      'Without a language model, a question is matched by keywords to a documented topic (will it complete, fail, be cancelled or declined, ' +
      'be approved, will the sellers accept, is it fraud or risky, will it ship on time; choice options naming outcomes) and answered from the ' +
      'outcomes of comparable finished orders (same model, flow, seller, customer) with Laplace smoothing and the order\'s own signals ' +
      '(status, fraud score, approvals, seller orders, shipments); `basis` gives the sample size and signals. An unrecognised question gets ' +
      'the uniform prior. Up to 4 images (document ids of the order, https URLs fetched under the outbound rules, base64 data URLs) must be ' +
      'PNG, JPEG or WebP by their bytes; one that cannot be fetched is reported in `basis` and does not fail the call. ' +
      'One request (an MCP batch, an A2A message) fetches at most 8 image URLs in all; the others are reported in `basis` as not fetched.',
    feature: 'orders',
    role: 'viewer',
    effect: 'read',
    input: assessOrderRestInput,
    output: assessOrderOutputSchema,
    example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', questions: ASSESS_EXAMPLE_QUESTIONS },
    summarize: (o) =>
      o.answers
        .map((a, i) => {
          const [top, p] = Object.entries(a.probabilities).reduce((best, e) => (e[1] > best[1] ? e : best));
          return `${a.id ?? `#${i + 1}`}: ${top} (${Math.round(p * 100)}%, ${a.basis.method}, ${a.basis.sampleSize} counted)`;
        })
        .join('; ') + '.',
    run: async (caller, input, call) => {
      const order = await readAssessedOrder(deps.db, input.id);
      // The call context is the request's scope (one per HTTP request or A2A message): its calls share one budget.
      const fetch = (url: string) => limits.fetch(call, callerKey(caller), url, get);
      const [images, past, pastSellerOrders] = await Promise.all([
        readAssessmentImages({ db: deps.db, fetch }, order.id, input.images ?? []),
        readComparableOrders(deps.db, order),
        readComparableSellerOrders(deps.db, order),
      ]);
      return assessOrder(input.questions, { now: deps.clock.now(), order, past, pastSellerOrders, images });
    },
  });
}

declare module '../operation-types.js' {
  interface OperationModules {
    assessOrder: ReturnType<typeof assessOrderOperation>;
  }
}
