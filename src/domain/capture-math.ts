// What a capture takes and releases: the lesser of the authorization and the re-totaled order.
export interface CaptureAmounts {
  captured: number;
  released: number;
}

/**
 * captured = min(authorized, orderTotal); released = authorized - captured.
 * Partial acceptance lowers the order total, so the rest of the authorization is released;
 * an order that somehow grew never captures more than was authorized. Minor units throughout.
 */
export function computeCapture(authorizedMinor: number, orderTotalMinor: number): CaptureAmounts {
  for (const [name, v] of [['authorized', authorizedMinor], ['orderTotal', orderTotalMinor]] as const)
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
  const captured = Math.min(authorizedMinor, orderTotalMinor);
  return { captured, released: authorizedMinor - captured };
}
