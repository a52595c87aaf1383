/**
 * Mulberry32: a small seeded generator of numbers in [0, 1), for tests that must replay the same sequence from a seed (a
 * relay's retry jitter, a random sequence of ledger changes). Takes the seed (any integer, taken as 32 bits); returns
 * the generator.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

