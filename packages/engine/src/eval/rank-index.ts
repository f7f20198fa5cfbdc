import type { Card } from '../cards.js';

/**
 * A minimal perfect index of rank multisets (at most four of a rank, 0 to 7 cards), built so that a
 * hand's index is a sum of per-card keys followed by two small lookups.
 *
 * The ranks split into a low half (2–8, seven ranks) and a high half (9–A, six). Each half's rank
 * counts, written in base 5, form a "quinary" number; one card's key adds 1 to its rank's digit. Both
 * quinaries fit one 31-bit integer (low in bits 0–16, high from bit 17), so summing the keys of the
 * cards gives both at once without carries between them. Each half's quinary maps to (cards in that
 * half, rank of the multiset among those with as many cards); the index of the whole multiset is then
 * a block offset plus a row-major position, and every index below the table size is used exactly once.
 */

const LOW_RANKS = 7;
const HIGH_RANKS = 6;
const HIGH_SHIFT = 17;
export const MAX_CARDS = 7;

/** Per card (0..51): its contribution to the packed quinary key. */
export const RANK_KEY = new Int32Array(52);
for (let card = 0; card < 52; card++) {
  const rank = card >> 2;
  RANK_KEY[card] = rank < LOW_RANKS ? 5 ** rank : (5 ** (rank - LOW_RANKS)) << HIGH_SHIFT;
}

interface HalfIndex {
  /** For each quinary: count of cards in the half (bits 0–3) and rank among equal counts (bits 4+). */
  info: Int32Array;
  /** How many multisets of the half hold n cards. */
  sizes: number[];
}

function buildHalf(ranks: number): HalfIndex {
  const info = new Int32Array(5 ** ranks).fill(-1);
  const sizes = new Array<number>(MAX_CARDS + 1).fill(0);
  const digitSums = new Uint8Array(info.length);
  for (let quinary = 0; quinary < info.length; quinary++) {
    const cards = (digitSums[quinary] = digitSums[Math.floor(quinary / 5)]! + (quinary % 5));
    if (cards > MAX_CARDS) continue;
    info[quinary] = cards | (sizes[cards]! << 4);
    sizes[cards] = sizes[cards]! + 1;
  }
  return { info, sizes };
}

const low = buildHalf(LOW_RANKS);
const high = buildHalf(HIGH_RANKS);
export const LOW_INFO = low.info;
export const HIGH_INFO = high.info;
/** Width of a block's rows: the number of high-half multisets with that many cards. */
export const HIGH_SIZES = Int32Array.from(high.sizes);

/** BLOCK_START[n * 8 + lowCards]: first index of the multisets of n cards with lowCards in the low half. */
export const BLOCK_START = new Int32Array((MAX_CARDS + 1) * 8);
/** INDEX_OFFSET[n]: first index of the n-card multisets; INDEX_OFFSET[MAX_CARDS + 1] is the table size. */
export const INDEX_OFFSET = new Int32Array(MAX_CARDS + 2);
{
  let next = 0;
  for (let n = 0; n <= MAX_CARDS; n++) {
    INDEX_OFFSET[n] = next;
    for (let lowCards = 0; lowCards <= n; lowCards++) {
      BLOCK_START[n * 8 + lowCards] = next;
      next += low.sizes[lowCards]! * high.sizes[n - lowCards]!;
    }
  }
  INDEX_OFFSET[MAX_CARDS + 1] = next;
}
export const INDEX_SIZE = INDEX_OFFSET[MAX_CARDS + 1]!;

/** The index of the rank multiset whose summed key is `key` (n cards in all). */
export function indexOfKey(key: number, n: number): number {
  const lowInfo = LOW_INFO[key & 0x1ffff]!;
  const highInfo = HIGH_INFO[key >>> HIGH_SHIFT]!;
  const lowCards = lowInfo & 15;
  return BLOCK_START[n * 8 + lowCards]! + (lowInfo >> 4) * HIGH_SIZES[n - lowCards]! + (highInfo >> 4);
}

export function keyOfCards(cards: ArrayLike<Card>): number {
  let key = 0;
  for (let i = 0; i < cards.length; i++) key += RANK_KEY[cards[i]!]!;
  return key;
}

/** The key of a multiset given as 13 rank counts. */
export function keyOfCounts(counts: readonly number[]): number {
  let key = 0;
  for (let rank = 0; rank < 13; rank++) key += counts[rank]! * RANK_KEY[rank * 4]!;
  return key;
}

/** Calls `visit(counts, key)` for every rank multiset of exactly n cards (at most four of a rank). */
export function forEachMultiset(n: number, visit: (counts: readonly number[], key: number) => void): void {
  const counts = new Array<number>(13).fill(0);
  const step = (rank: number, left: number, key: number): void => {
    if (rank === 12) {
      if (left > 4) return;
      counts[12] = left;
      visit(counts, key + left * RANK_KEY[48]!);
      counts[12] = 0;
      return;
    }
    for (let count = 0; count <= 4 && count <= left; count++) {
      counts[rank] = count;
      step(rank + 1, left - count, key + count * RANK_KEY[rank * 4]!);
    }
    counts[rank] = 0;
  };
  step(0, n, 0);
}

/**
 * A table over every rank multiset of 5 to MAX_CARDS cards: five-card values from `valueOf5`, and for
 * more cards the best value left after taking one card away, which is the best five of them.
 */
export function buildRankTable(valueOf5: (counts: readonly number[]) => number): Int32Array {
  const table = new Int32Array(INDEX_SIZE);
  forEachMultiset(5, (counts, key) => (table[indexOfKey(key, 5)] = valueOf5(counts)));
  for (let n = 6; n <= MAX_CARDS; n++) {
    forEachMultiset(n, (counts, key) => {
      let best = -Infinity;
      for (let rank = 0; rank < 13; rank++) {
        if (counts[rank] === 0) continue;
        const value = table[indexOfKey(key - RANK_KEY[rank * 4]!, n - 1)]!;
        if (value > best) best = value;
      }
      table[indexOfKey(key, n)] = best;
    });
  }
  return table;
}
