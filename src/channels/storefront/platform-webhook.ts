// The storefront-platform adapter: authenticate, filter the topic, map the order-created payload, start it (spec "Storefront-platform adapter").
import type { OrderServiceDeps } from '../../orders/start-order.js';
import { DomainError, notFound, unauthorized, ValidationError } from '../../domain/errors.js';
import { inboundOrderBodySchema } from '../../domain/order-input-schema.js';
import { zodIssues } from '../../lib/zod-issues.js';
import { readChannelSettings } from '../channel-settings.js';
import { startInboundOrder, type InboundStartOutcome } from '../inbound/inbound-start.js';
import { parseJsonObject } from '../json-body.js';
import { verifyPlatformHmac } from './platform-hmac.js';
import { mapPlatformOrder, type PlatformCustomer } from './platform-order-mapper.js';
import { topLevelNumberLiteral } from './raw-json-id.js';

/** The neutral path segment and header names of the spec; the platform's own name works in their place. */
export const PLATFORM_SEGMENT = 'platform';
export const PLATFORM_HMAC_HEADER = 'X-Platform-Hmac-Sha256';
export const PLATFORM_TOPIC_HEADER = 'X-Platform-Topic';
/** The order-created topic (the only one that starts an order). */
export const ORDER_CREATED_TOPIC = 'orders/create';

export interface PlatformWebhookRequest {
  /** The path segment after /channels/: `platform` or the platform's own name. */
  segment: string;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  rawBody: Buffer;
}

/**
 * 503 while the workspace has no client secret; 401 for a missing or wrong HMAC (checked on
 * the raw bytes before anything is parsed); 200 `{ ignored: true, topic }` for any topic but
 * order-created; 400 for a payload that cannot be mapped (`Line items without a SKU…`) or that
 * the inbound schema refuses; otherwise the inbound start's 201 / 200 replay / 409 / 422.
 */
/** What a platform webhook came to: an order started or replayed, or a topic acknowledged and ignored. */
export type PlatformWebhookOutcome = InboundStartOutcome | { ignored: true; topic: string };

export async function receivePlatformWebhook(deps: OrderServiceDeps, req: PlatformWebhookRequest): Promise<PlatformWebhookOutcome> {
  const settings = await readChannelSettings(deps.db);
  const name = settings.platformName;
  const known = req.segment === PLATFORM_SEGMENT || (name !== null && req.segment === name);
  if (!known) throw notFound('Route');
  if (!settings.platformSecret || name === null)
    throw new DomainError('platform_disabled', 'The storefront-platform adapter is not enabled: no client secret is set', 'unavailable');

  // The platform's own header names (X-<Name>-Hmac-Sha256, X-<Name>-Topic) are accepted too.
  const header = (suffix: string): string | undefined => req.header(`x-platform-${suffix}`) ?? req.header(`x-${name}-${suffix}`);
  const hmac = header('hmac-sha256');
  if (!hmac) throw unauthorized(`Missing ${PLATFORM_HMAC_HEADER} header`);
  if (!verifyPlatformHmac(settings.platformSecret, req.rawBody, hmac)) throw unauthorized('Platform HMAC does not match');

  const topic = header('topic')?.trim();
  if (!topic) throw new DomainError('missing_topic', `Missing ${PLATFORM_TOPIC_HEADER} header`, 'invalid_input');
  if (topic.toLowerCase() !== ORDER_CREATED_TOPIC) return { ignored: true, topic };

  const text = req.rawBody.toString('utf8');
  const payload = parseJsonObject(text);
  // 64-bit ids: take the id as written, not as JSON.parse rounded it.
  const exactId = topLevelNumberLiteral(text, 'id');
  if (exactId !== undefined && /^\d+$/.test(exactId)) payload.id = exactId;

  const mapped = mapPlatformOrder(payload, { platformName: name, customers: await customersByEmail(deps, payload.email) });
  if (!mapped.ok) throw new DomainError('unmappable_payload', mapped.error, 'invalid_input');
  const parsed = inboundOrderBodySchema.safeParse(mapped.order);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error), 'The platform order does not make a valid inbound order');

  // The fingerprint covers the order as the payload gives it; the customer match is the server's doing.
  const { customerId: _matched, ...sent } = mapped.order;
  return startInboundOrder(deps, { body: parsed.data, via: 'webhook', startedBy: `platform:${name}`, sent });
}

/** Workspace customers whose email equals the payload's, ignoring case (the mapper picks the first). */
async function customersByEmail(deps: OrderServiceDeps, email: unknown): Promise<PlatformCustomer[]> {
  if (typeof email !== 'string' || email.trim() === '') return [];
  const { rows } = await deps.db.query<PlatformCustomer>('SELECT id, email FROM customers WHERE lower(email) = lower($1) ORDER BY id', [email.trim()]);
  return rows;
}
