// Constant-time comparison of secrets of any length (hash both sides, then timingSafeEqual).
import { createHash, timingSafeEqual } from 'node:crypto';

export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
