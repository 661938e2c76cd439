// The seed of the randomised resilience tests: fixed in CI (printed), `RESILIENCE_SEED=random` or a number locally.
const FIXED_SEED = 20_261_122;

/**
 * `RESILIENCE_SEED` unset: the fixed seed (CI runs are repeatable). `random`: a fresh seed per run.
 * A number: that seed (to replay a failure). The chosen seed is printed so any failing run can be replayed.
 */
export function resilienceSeed(label: string): number {
  const raw = process.env.RESILIENCE_SEED;
  const seed = raw === 'random' ? (Date.now() ^ (process.pid << 8)) >>> 0 : raw ? Number(raw) : FIXED_SEED;
  if (!Number.isSafeInteger(seed)) throw new Error(`RESILIENCE_SEED must be an integer or "random", got ${raw}`);
  console.log(`[resilience] ${label}: seed ${seed} (replay with RESILIENCE_SEED=${seed})`);
  return seed;
}

/** A small seeded generator (mulberry32): the same seed gives the same plan and the same kill moments. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
