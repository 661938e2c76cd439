// Great-circle distance and the nearest stocking location to a point (route-fulfillment).

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius in kilometres (IUGG). */
export const EARTH_RADIUS_KM = 6371.0088;

const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Haversine distance between two points in kilometres. */
export function haversineKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = toRad(b.latitude - a.latitude);
  const dLon = toRad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The closest of `locations` (the caller passes those that have the stock) to `point`.
 * Locations without coordinates are skipped; ties go to the earlier location so the choice is
 * deterministic. Null when no location qualifies.
 */
export function nearestLocation<L extends { latitude?: number | null; longitude?: number | null }>(
  point: GeoPoint,
  locations: readonly L[],
): { location: L; distanceKm: number } | null {
  let best: { location: L; distanceKm: number } | null = null;
  for (const location of locations) {
    if (typeof location.latitude !== 'number' || typeof location.longitude !== 'number') continue;
    const distanceKm = haversineKm(point, { latitude: location.latitude, longitude: location.longitude });
    if (best === null || distanceKm < best.distanceKm) best = { location, distanceKm };
  }
  return best;
}
