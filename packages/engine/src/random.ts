/**
 * Randomness is injected: the engine never reaches for a global source. Production passes a
 * cryptographic source (node:crypto, in the server and the command line); tests and simulations pass
 * a seeded one so that the same seed gives the same hands.
 */
export interface RandomSource {
  /** A uniformly random integer in [0, 2^32). */
  nextUint32(): number;
}

/** A uniform integer in [0, bound) by rejection sampling: no modulo bias. */
export function randomBelow(source: RandomSource, bound: number): number {
  if (!Number.isInteger(bound) || bound < 1 || bound > 0x1_0000_0000) {
    throw new RangeError(`bound must be an integer in [1, 2^32], got ${bound}`);
  }
  // The largest multiple of bound that fits in 2^32; draws at or above it are rejected.
  const limit = 0x1_0000_0000 - (0x1_0000_0000 % bound);
  for (;;) {
    const draw = source.nextUint32();
    if (draw < limit) return draw % bound;
  }
}

/** Fisher–Yates shuffle in place; every permutation is equally likely. */
export function shuffleInPlace<T>(items: T[], source: RandomSource): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomBelow(source, i + 1);
    const item = items[i]!;
    items[i] = items[j]!;
    items[j] = item;
  }
  return items;
}

/**
 * sfc32 seeded from a 32-bit integer through splitmix32: small, fast and statistically sound for
 * tests and simulations. Not for dealing real games.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  const splitmix = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const source: RandomSource = {
    nextUint32(): number {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      return t >>> 0;
    },
  };
  for (let i = 0; i < 12; i++) source.nextUint32();
  return source;
}
