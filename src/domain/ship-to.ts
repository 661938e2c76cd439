// The ship-to address an order carries in `meta.shipTo`: a free-text string or a structured address.
import { z } from 'zod';

/** Limit from the spec: a shipTo string is at most 500 characters. */
export const SHIP_TO_STRING_MAX = 500;

const text = (max: number) => z.string().min(1).max(max);

/** Structured address; latitude/longitude let route-fulfillment pick the nearest store. */
export const shipToAddressSchema = z.strictObject({
  name: text(200).optional(),
  line1: text(200),
  line2: text(200).optional(),
  city: text(100),
  region: text(100).optional(),
  postalCode: text(20),
  country: text(60),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
});

/** `shipTo`: an address string (up to 500 characters) or the structured address. */
export const shipToSchema = z.union([z.string().max(SHIP_TO_STRING_MAX), shipToAddressSchema]);

export type ShipToAddress = z.output<typeof shipToAddressSchema>;
export type ShipTo = z.output<typeof shipToSchema>;

/** The address's coordinates when both are present, else null. */
export function shipToPoint(shipTo: ShipTo | null | undefined): { latitude: number; longitude: number } | null {
  if (!shipTo || typeof shipTo === 'string') return null;
  if (shipTo.latitude === undefined || shipTo.longitude === undefined) return null;
  return { latitude: shipTo.latitude, longitude: shipTo.longitude };
}
