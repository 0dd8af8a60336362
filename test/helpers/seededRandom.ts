/**
 * mulberry32: a small, fast seeded PRNG (32-bit state), enough to make generated test and benchmark data
 * identical on every machine. Not for anything that needs statistical or cryptographic quality.
 *
 * @returns a function giving the next number in [0, 1).
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
