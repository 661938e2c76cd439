// Unit tests for distances (spec "Signed inbound orders route": shipTo coordinates let route-fulfillment pick the nearest store).
import { describe, expect, it } from 'vitest';
import { haversineKm, nearestLocation } from '../../../src/domain/geo.js';

const newark = { latitude: 40.7357, longitude: -74.1724 };
const reno = { latitude: 39.5296, longitude: -119.8138 };

describe('haversine distance and nearest location', () => {
  it('known distances: zero to itself; Newark-Reno about 3,850 km; a quarter meridian about 10,008 km', () => {
    expect(haversineKm(newark, newark)).toBe(0);
    expect(haversineKm(newark, reno)).toBeGreaterThan(3800);
    expect(haversineKm(newark, reno)).toBeLessThan(3900);
    expect(haversineKm({ latitude: 0, longitude: 0 }, { latitude: 90, longitude: 0 })).toBeCloseTo(10_007.5, 0);
  });

  it('picks the closest location with coordinates; ties go to the earlier one; none gives null', () => {
    const locations = [
      { id: 'loc_main', ...newark },
      { id: 'nowhere', latitude: null, longitude: null },
      { id: 'loc_west', ...reno },
      { id: 'loc_west_twin', ...reno },
    ];
    expect(nearestLocation({ latitude: 37.78, longitude: -122.4 }, locations)?.location.id).toBe('loc_west');
    expect(nearestLocation({ latitude: 40.72, longitude: -74.0 }, locations)?.location.id).toBe('loc_main');
    expect(nearestLocation(newark, [])).toBeNull();
    expect(nearestLocation(newark, [{ id: 'x', latitude: 1 }])).toBeNull();
  });
});
