// How the order asks to be fulfilled (`input.fulfillment`): shipped or picked up, and at which location; pure.

/** `input.fulfillment` as far as stock cares: the method (`ship` when absent) and the location it names, if any. */
export function fulfillmentOf(input: Record<string, unknown>): { method: string; locationId: string | null } {
  const f = input.fulfillment as { method?: unknown; locationId?: unknown } | undefined;
  return {
    method: typeof f?.method === 'string' ? f.method : 'ship',
    locationId: typeof f?.locationId === 'string' ? f.locationId : null,
  };
}
