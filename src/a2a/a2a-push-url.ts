// Push URL rules (spec "Push notifications"): https (plain http only for localhost, 127.0.0.1, [::1]), public addresses only.
import net from 'node:net';
import { classifyAddress } from '../webhooks/address-policy.js';
import { subscriptionUrlSchema } from '../webhooks/subscription-url.js';

/**
 * Why `url` cannot receive pushes, or null when it may. The same URL rules as webhook subscriptions;
 * an address literal must also be public (a loopback one is accepted like `localhost` and reached only
 * with OUTBOUND_ALLOW_LOOPBACK). Host names are checked when each notification is sent, against every
 * address they resolve to then (the outbound SSRF guard), since DNS can change after registration.
 */
export function pushUrlProblem(url: string): string | null {
  const parsed = subscriptionUrlSchema.safeParse(url);
  if (!parsed.success) return `Push URL ${parsed.error.issues[0]?.message ?? 'is invalid'}`;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && classifyAddress(host) === 'blocked') return 'Push URL must point to a public internet address';
  return null;
}
