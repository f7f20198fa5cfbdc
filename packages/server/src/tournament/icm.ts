/**
 * The ICM deal's arithmetic, exact: each player's Malmuth–Harville equity as an integer numerator over
 * one common denominator, then whole cents by largest remainder compared exactly. Floating point would
 * give two equal stacks equities that differ in the last bits, and so the odd cent by noise instead of
 * by the rule (ties to the earlier entry).
 *
 * The chance that the players of a set T took the first |T| places has a denominator dividing the
 * product of (all chips − chips of U) over the sets U ⊊ T; so with D the product over every set that
 * can still be followed by a paid place, every chance times D is an integer and each step is a BigInt
 * multiplication and an exact division — no fractions to reduce. A final table is small: 2^n sets.
 */

/** Equities as numerators over one denominator. */
export interface Equities {
  readonly numerators: readonly bigint[];
  readonly denominator: bigint;
}

/**
 * Each player's equity in `prizes` (1st first, at most one a player) by the Malmuth–Harville model:
 * the chance of finishing first is the share of the chips; given who finished above, the same among
 * those left.
 */
export function icmEquities(stacks: readonly number[], prizes: readonly number[]): Equities {
  const n = stacks.length;
  const chips = stacks.map(BigInt);
  const all = chips.reduce((a, b) => a + b, 0n);
  const sets = 1 << n;
  const size = new Uint8Array(sets);
  const placed: bigint[] = new Array<bigint>(sets).fill(0n);
  for (let mask = 1; mask < sets; mask++) {
    const low = Math.clz32(mask & -mask) ^ 31;
    size[mask] = size[mask & (mask - 1)]! + 1;
    placed[mask] = placed[mask & (mask - 1)]! + chips[low]!;
  }
  let denominator = 1n;
  for (let mask = 0; mask < sets; mask++) if (size[mask]! < prizes.length) denominator *= all - placed[mask]!;
  // reach[mask] × denominator: the chance that mask's players took the first |mask| places.
  const reach: bigint[] = new Array<bigint>(sets).fill(0n);
  reach[0] = denominator;
  const numerators = stacks.map(() => 0n);
  // Increasing masks: every subset of a set comes before it.
  for (let mask = 0; mask < sets; mask++) {
    const place = size[mask]!;
    if (reach[mask] === 0n || place >= prizes.length) continue;
    const left = all - placed[mask]!;
    const prize = BigInt(prizes[place]!);
    for (let i = 0; i < n; i++) {
      if (mask & (1 << i)) continue;
      const q = (reach[mask]! * chips[i]!) / left;
      numerators[i]! += q * prize;
      reach[mask | (1 << i)]! += q;
    }
  }
  return { numerators, denominator };
}

/**
 * Whole cents adding up to `total` (the exact equities' sum): each rounded down, the cents left one
 * each to the largest remainders, ties to the earlier entry.
 */
export function wholeCents(total: number, equities: Equities): number[] {
  const { numerators, denominator } = equities;
  const cents = numerators.map((num) => num / denominator);
  let left = BigInt(total) - cents.reduce((a, b) => a + b, 0n);
  const order = numerators
    .map((num, i) => ({ i, rem: num % denominator }))
    .sort((a, b) => (b.rem > a.rem ? 1 : b.rem < a.rem ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left <= 0n) break;
    cents[i]! += 1n;
    left -= 1n;
  }
  return cents.map(Number);
}
