/**
 * Payouts: the standard table by number of entrants (or the tournament's own), prizes in integer
 * cents that add up exactly to the pool, and the final-table deals (ICM by the Malmuth–Harville model,
 * and chip chop). Pure.
 *
 * The standard table: 1 place paid up to 3 entrants (winner takes all; heads-up included), 2 up to 6
 * (65/35), 3 up to 10 (50/30/20), then 15 % of the field (rounded down, at least 3). Over 3 places the
 * shares follow 1/i^a with a = 1 (4 places: 48/24/16/12 %); from 30 places (200 entrants) first place
 * is kept within 15–25 %: where a = 1 would give more than 25 % or less than 15 %, a is the exponent
 * that gives 24.5 % or 15.5 %. 1,000 entrants: 150 places, 17.9 % to first.
 */
import { icmEquities, wholeCents } from './icm.js';
import type { PayoutRange } from './structure.js';

const BASIS = 10_000;
/** The most players of a deal: a final table's. */
const MAX_DEAL_PLAYERS = 10;
/** Places paid from which a field counts as large: first place is kept within 15–25 %. */
const LARGE = 30;

/** Places paid by the standard table. */
export function standardPlacesPaid(entrants: number): number {
  if (entrants <= 3) return 1;
  if (entrants <= 6) return 2;
  if (entrants <= 10) return 3;
  return Math.max(3, Math.floor(entrants * 0.15));
}

/** Splits `total` in integer parts proportional to `weights` (largest remainder; ties to the earlier entry): the parts add up to `total`. */
export function largestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (sum === 0 ? 0 : (total * w) / sum));
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, frac: x - Math.floor(x) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left--;
  }
  return parts;
}

function firstShare(places: number, exponent: number): number {
  let sum = 0;
  for (let i = 1; i <= places; i++) sum += i ** -exponent;
  return 1 / sum;
}

/** The exponent of the 1/i^a shares for `places` paid (see the module comment). */
function exponentFor(places: number): number {
  const harmonic = firstShare(places, 1);
  if (places < LARGE || (harmonic >= 0.15 && harmonic <= 0.25)) return 1;
  // First place's share grows with the exponent: bisect for the target.
  const target = harmonic > 0.25 ? 0.245 : 0.155;
  let low = 0;
  let high = 3;
  for (let k = 0; k < 50; k++) {
    const mid = (low + high) / 2;
    if (firstShare(places, mid) < target) low = mid;
    else high = mid;
  }
  return high;
}

/** The standard payout table: shares of the pool in basis points, first place first, adding up to 10,000. */
export function standardPayoutTable(entrants: number): number[] {
  const places = standardPlacesPaid(entrants);
  if (places === 1) return [BASIS];
  if (places === 2) return [6_500, 3_500];
  if (places === 3) return [5_000, 3_000, 2_000];
  const a = exponentFor(places);
  return largestRemainder(
    BASIS,
    Array.from({ length: places }, (_, i) => (i + 1) ** -a),
  );
}

/** The payout table for `entrants`: the tournament's own (the range for the most entrants it reaches), else the standard one. */
export function payoutTable(entrants: number, own?: readonly PayoutRange[]): number[] {
  const range = own?.filter((r) => r.fromEntrants <= entrants).at(-1);
  return range !== undefined ? [...range.shares] : standardPayoutTable(entrants);
}

/**
 * The prizes in cents of a pool of `pool` cents by a table of basis points: each place its share
 * rounded down, the cents left one each to the highest places; they add up to the pool, and a lower
 * place never gets more than a higher one.
 */
export function prizes(pool: number, table: readonly number[]): number[] {
  if (!Number.isSafeInteger(pool) || pool < 0 || pool * BASIS > Number.MAX_SAFE_INTEGER)
    throw new RangeError(`pool must be whole cents ≥ 0, got ${pool}`);
  const total = table.reduce((a, b) => a + b, 0);
  const parts = table.map((bp) => Math.floor((pool * bp) / total));
  let left = pool - parts.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % parts.length, left--) parts[i]! += 1;
  return parts;
}

function checkDeal(stacks: readonly number[], unpaid: readonly number[]): void {
  if (stacks.length < 2 || !stacks.every((s) => Number.isSafeInteger(s) && s > 0))
    throw new RangeError('a deal needs two or more players with chips');
  if (unpaid.length > stacks.length || !unpaid.every((p) => Number.isSafeInteger(p) && p >= 0))
    throw new RangeError('a deal shares at most one prize per player, in whole cents');
}

const total = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * An ICM deal: each player's Malmuth–Harville equity in the prizes still unpaid (`unpaid[0]` = the
 * prize for 1st), exact (./icm.ts), in whole cents (largest remainder; ties to the earlier entry) that
 * add up to the unpaid prizes.
 */
export function icmDeal(stacks: readonly number[], unpaid: readonly number[]): number[] {
  checkDeal(stacks, unpaid);
  if (stacks.length > MAX_DEAL_PLAYERS)
    throw new RangeError(`a deal is for at most ${MAX_DEAL_PLAYERS} players`);
  return wholeCents(total(unpaid), icmEquities(stacks, unpaid));
}

/**
 * A chip chop: every player gets the smallest unpaid prize (that of the last place among them), and
 * the rest is shared in proportion to the chips, in whole cents (largest remainder, exact in integers)
 * that add up to the unpaid prizes.
 */
export function chipChop(stacks: readonly number[], unpaid: readonly number[]): number[] {
  checkDeal(stacks, unpaid);
  const floor = unpaid.length === stacks.length ? unpaid.at(-1)! : 0;
  const rest = total(unpaid) - floor * stacks.length;
  // Each share is rest × stack / chips: numerators over the chips, rounded as the ICM deal's are.
  const numerators = stacks.map((stack) => BigInt(rest) * BigInt(stack));
  return wholeCents(rest, { numerators, denominator: BigInt(total(stacks)) }).map((cents) => floor + cents);
}
