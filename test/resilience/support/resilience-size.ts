// How big the resilience scenarios run: the short form in `npm test` (CI), the full form with RESILIENCE=full.
export const FULL = process.env.RESILIENCE === 'full';

export const SIZES = FULL
  ? {
      form: 'full',
      crash: { orders: 1_000, kills: 20 },
      redisOutage: { orders: 200 },
      postgresOutage: { orders: 200 },
      slowReceivers: { orders: 60 },
      shutdown: { inFlight: 60 },
      fuzzRuns: 150,
      threeNodes: { orders: 300 },
      migrate: { orders: 1_000 },
    }
  : {
      form: 'short',
      crash: { orders: 80, kills: 4 },
      redisOutage: { orders: 40 },
      postgresOutage: { orders: 40 },
      slowReceivers: { orders: 16 },
      shutdown: { inFlight: 16 },
      fuzzRuns: 40,
      threeNodes: { orders: 45 },
      migrate: { orders: 60 },
    };
