/**
 * A seeded pseudo-random generator (mulberry32), uniform in [0, 1). Generators, benchmarks and
 * clustering need numbers that are the same on every run and machine; Math.random cannot be seeded.
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

/**
 * Standard normal deviates from a uniform generator (Box–Muller, both values of each pair used):
 * seeded noise for synthetic series and the t-SNE start layout.
 */
export function gaussianFrom(random: () => number): () => number {
  let spare = NaN;
  return () => {
    if (spare === spare) {
      const v = spare;
      spare = NaN;
      return v;
    }
    // 1 − u is in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

/** Fisher–Yates shuffle of `items[from, to)` in place with the given generator (uniform over orders). */
export function shuffleInPlace<T extends { length: number; [i: number]: unknown }>(
  items: T,
  random: () => number,
  from = 0,
  to = items.length,
): T {
  for (let i = to - 1; i > from; i--) {
    const j = from + Math.floor(random() * (i - from + 1));
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}
