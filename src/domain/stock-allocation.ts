// Which location a line's units come from: a pinned location, else the nearest (or best stocked) one with enough.
import { nearestLocation, type GeoPoint } from './geo.js';

/** A location's free stock of one SKU (on hand minus reserved). */
export interface StockCandidate {
  locationId: string;
  kind: 'warehouse' | 'store';
  latitude: number;
  longitude: number;
  available: number;
}

/**
 * Picks the location for `qty` units. With a ship-to point: the nearest location that has them.
 * Without one: warehouses before stores, then the most available, then the id (deterministic).
 * Null when no location has `qty` free.
 */
export function chooseStockLocation(candidates: readonly StockCandidate[], qty: number, point: GeoPoint | null): StockCandidate | null {
  const enough = candidates.filter((c) => c.available >= qty);
  if (enough.length === 0) return null;
  if (point) return nearestLocation(point, enough)?.location ?? null;
  return [...enough].sort(
    (a, b) => (a.kind === b.kind ? 0 : a.kind === 'warehouse' ? -1 : 1) || b.available - a.available || (a.locationId < b.locationId ? -1 : 1),
  )[0];
}
