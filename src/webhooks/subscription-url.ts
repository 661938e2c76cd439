// Subscriber URL rules (spec "Webhook subscriptions"): https, or plain http only for localhost, 127.0.0.1 and [::1].
import { z } from 'zod';

/** Host names that mean this machine; plain http is accepted only for these. */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True when the URL's host is one of the loopback names (such URLs are reached only with OUTBOUND_ALLOW_LOOPBACK=1). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

/** The `url` of a subscription: absolute, https (or loopback http), no credentials, at most 2048 characters. */
export const subscriptionUrlSchema = z
  .string()
  .max(2048)
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URL' });
      return;
    }
    if (url.protocol === 'http:' && !isLoopbackUrl(url))
      ctx.addIssue({ code: 'custom', message: 'must be https (plain http only for localhost, 127.0.0.1 or [::1])' });
    else if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: 'must be an https URL' });
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password' });
    if (url.hash) ctx.addIssue({ code: 'custom', message: 'must not have a #fragment' });
  });
