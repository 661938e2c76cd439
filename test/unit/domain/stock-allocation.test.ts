// Choosing the location a line's units come from (route-fulfillment, reserve-stock).
import { describe, expect, it } from 'vitest';
import { chooseStockLocation, type StockCandidate } from '../../../src/domain/stock-allocation.js';

const loc = (locationId: string, kind: 'warehouse' | 'store', latitude: number, longitude: number, available: number): StockCandidate => ({
  locationId, kind, latitude, longitude, available,
});
const NEWARK = loc('loc_main', 'warehouse', 40.7357, -74.1724, 100);
const RENO = loc('loc_west', 'warehouse', 39.5296, -119.8138, 60);
const SOHO = loc('store_soho', 'store', 40.7233, -74.003, 2);
const SF = loc('store_sf', 'store', 37.7879, -122.4075, 8);

describe('chooseStockLocation', () => {
  it('with a ship-to point: the nearest location that has the quantity', () => {
    expect(chooseStockLocation([NEWARK, RENO, SOHO, SF], 1, { latitude: 40.73, longitude: -73.99 })?.locationId).toBe('store_soho');
    expect(chooseStockLocation([NEWARK, RENO, SOHO, SF], 3, { latitude: 40.73, longitude: -73.99 })?.locationId).toBe('loc_main');
    expect(chooseStockLocation([NEWARK, RENO, SOHO, SF], 3, { latitude: 37.79, longitude: -122.4 })?.locationId).toBe('store_sf');
  });

  it('without a point: warehouses first, then most available, then id', () => {
    expect(chooseStockLocation([SF, RENO, NEWARK], 5, null)?.locationId).toBe('loc_main');
    expect(chooseStockLocation([SF, RENO, { ...NEWARK, available: 60 }], 5, null)?.locationId).toBe('loc_main');
    expect(chooseStockLocation([SF, SOHO], 1, null)?.locationId).toBe('store_sf');
  });

  it('null when no location has enough', () => {
    expect(chooseStockLocation([SOHO, SF], 9, null)).toBeNull();
    expect(chooseStockLocation([], 1, { latitude: 0, longitude: 0 })).toBeNull();
  });
});
