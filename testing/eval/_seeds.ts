// Seeds for trials: each trial's seed is a pure function of the run's seed
// and the trial's index, so trial 7 gets the same seed on every machine and
// in every shard, whatever ran before it.

/**
 * A 32-bit mix of `seed` and `index` (the finaliser of MurmurHash3,
 * Appleby 2008, over the two words): neighbouring indexes get unrelated
 * seeds. Returns a non-negative integer below 2^31.
 */
export function trialSeed(seed: number, index: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 1;
}

/**
 * A seeded generator of numbers in [0, 1) (mulberry32, Tommy Ettinger's
 * public-domain 32-bit generator): small, fast, and the same sequence for
 * the same seed on every engine.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit FNV-1a hash of a string (Fowler, Noll, Vo): for shard splits and cache keys. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
