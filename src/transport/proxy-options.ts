// Koa's proxy settings from TRUST_PROXY: which X-Forwarded-For entry is the client address.

/**
 * Options for `new Koa(...)`. With `hops` trusted proxies in front, the client address is the
 * `hops`-th entry from the right of X-Forwarded-For: the one our outermost proxy appended. Entries
 * to its left were written by the client and change nothing (no throttle key, no audit address).
 * Without proxies the header is ignored and the socket's address is used.
 */
export function proxyOptions(hops: number): { proxy: boolean; maxIpsCount?: number } {
  return hops > 0 ? { proxy: true, maxIpsCount: hops } : { proxy: false };
}
