import type { Card } from '../cards.js';
import { SUIT_KEY } from './high.js';
import { indexOfKey, INDEX_OFFSET, RANK_KEY } from './rank-index.js';

/** Rank multisets of two cards (91) and of three cards (455): their places in the rank index. */
const PAIRS = INDEX_OFFSET[3]! - INDEX_OFFSET[2]!;
const pairIndex = (key: number): number => indexOfKey(key, 2) - INDEX_OFFSET[2]!;
const tripleIndex = (key: number): number => indexOfKey(key, 3) - INDEX_OFFSET[3]!;

/**
 * For a five-card rank table: the value of every (board triple, hole pair) rank combination, so that
 * each Omaha combination costs one read. Combinations with five of a rank cannot be dealt and stay 0.
 */
const pairTripleTables = new WeakMap<Int32Array, Int32Array>();
function pairTripleTable(rankTable: Int32Array): Int32Array {
  let table = pairTripleTables.get(rankTable);
  if (table) return table;
  table = new Int32Array((INDEX_OFFSET[4]! - INDEX_OFFSET[3]!) * PAIRS);
  const keyOf = (ranks: number[]): number => ranks.reduce((key, rank) => key + RANK_KEY[rank * 4]!, 0);
  for (let a = 0; a < 13; a++) {
    for (let b = a; b < 13; b++) {
      for (let c = b; c < 13; c++) {
        for (let d = 0; d < 13; d++) {
          for (let e = d; e < 13; e++) {
            const ranks = [a, b, c, d, e];
            if (ranks.some((rank) => ranks.filter((other) => other === rank).length > 4)) continue;
            const value = rankTable[indexOfKey(keyOf(ranks), 5)]!;
            table[tripleIndex(keyOf([a, b, c])) * PAIRS + pairIndex(keyOf([d, e]))] = value;
          }
        }
      }
    }
  }
  pairTripleTables.set(rankTable, table);
  return table;
}

/** The pair index of two cards by their numbers: one read instead of an index computation. */
const PAIR_OF_CARDS = new Int32Array(52 * 52);
for (let a = 0; a < 52; a++) {
  for (let b = 0; b < 52; b++) PAIR_OF_CARDS[a * 52 + b] = pairIndex(RANK_KEY[a]! + RANK_KEY[b]!);
}

/** The table row of a triple: by the pair index of two of its cards and the rank of the third. */
const TRIPLE_ROW = new Int32Array(PAIRS * 13);
for (let a = 0; a < 52; a += 4) {
  for (let b = a; b < 52; b += 4) {
    for (let rank = 0; rank < 13; rank++) {
      const key = RANK_KEY[a]! + RANK_KEY[b]! + RANK_KEY[rank * 4]!;
      TRIPLE_ROW[PAIR_OF_CARDS[a * 52 + b]! * 13 + rank] = tripleIndex(key) * PAIRS;
    }
  }
}

// Scratch space for the hole pairs and board triples: an Omaha hand has at most 10 of each.
const pairRows = new Int32Array(10);
const pairFlushMasks = new Int32Array(10);
const tripleRows = new Int32Array(10);
const tripleFlushMasks = new Int32Array(10);

/**
 * The best high value of exactly two hole cards and three board cards, for 4 or 5 hole cards and 3 to
 * 5 board cards. Each pair and triple is looked up once; each of the 60 (or 100) combinations then costs
 * one table read. A flush needs three board cards of one suit — at most one suit can have them — and
 * two hole cards of it.
 */
export function bestOmahaByKeys(
  hole: ArrayLike<Card>,
  board: ArrayLike<Card>,
  rankTable: Int32Array,
  flushTable: Int32Array,
): number {
  const table = pairTripleTable(rankTable);
  let boardSuits = 0;
  for (let i = 0; i < board.length; i++) boardSuits += SUIT_KEY[board[i]!]!;
  let flushSuit = -1;
  for (let suit = 0; suit < 4; suit++) if (((boardSuits >> (3 * suit)) & 7) >= 3) flushSuit = suit;

  let pairs = 0;
  for (let i = 0; i < hole.length; i++) {
    for (let j = i + 1; j < hole.length; j++) {
      const a = hole[i]!;
      const b = hole[j]!;
      pairRows[pairs] = PAIR_OF_CARDS[a * 52 + b]!;
      pairFlushMasks[pairs++] =
        (a & 3) === flushSuit && (b & 3) === flushSuit ? (1 << (a >> 2)) | (1 << (b >> 2)) : 0;
    }
  }
  let triples = 0;
  for (let i = 0; i < board.length; i++) {
    for (let j = i + 1; j < board.length; j++) {
      for (let k = j + 1; k < board.length; k++) {
        const a = board[i]!;
        const b = board[j]!;
        const c = board[k]!;
        tripleRows[triples] = TRIPLE_ROW[PAIR_OF_CARDS[a * 52 + b]! * 13 + (c >> 2)]!;
        tripleFlushMasks[triples++] =
          (a & 3) === flushSuit && (b & 3) === flushSuit && (c & 3) === flushSuit
            ? (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2))
            : 0;
      }
    }
  }

  let best = 0;
  for (let t = 0; t < triples; t++) {
    const row = tripleRows[t]!;
    for (let p = 0; p < pairs; p++) {
      const value = table[row + pairRows[p]!]!;
      if (value > best) best = value;
    }
  }
  if (flushSuit >= 0) {
    for (let t = 0; t < triples; t++) {
      const tripleMask = tripleFlushMasks[t]!;
      if (tripleMask === 0) continue;
      for (let p = 0; p < pairs; p++) {
        const pairMask = pairFlushMasks[p]!;
        if (pairMask === 0) continue;
        const value = flushTable[tripleMask | pairMask]!;
        if (value > best) best = value;
      }
    }
  }
  return best;
}
