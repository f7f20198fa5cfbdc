import type { Card } from '../cards.js';
import { SUIT_KEY } from './high.js';
import { indexOfKey, RANK_KEY } from './rank-index.js';

// Scratch space for the two-card and three-card parts: an Omaha hand has at most 10 of each.
const pairKeys = new Int32Array(10);
const pairSuited = new Int32Array(10);
const tripleKeys = new Int32Array(10);
const tripleSuited = new Int32Array(10);

/** The rank mask of the cards when all of them have the given suit, else 0. */
function suitedMask(suit: number, ...cards: Card[]): number {
  let mask = 0;
  for (const card of cards) {
    if ((card & 3) !== suit) return 0;
    mask |= 1 << (card >> 2);
  }
  return mask;
}

/**
 * The best high value of exactly two hole cards and three board cards, for 4 or 5 hole cards and 3 to
 * 5 board cards. Rank keys of every pair and triple are summed once and then combined, so each of the
 * 60 (or 100) hands costs three table reads. A flush needs three board cards of one suit — at most one
 * suit can have them — and two hole cards of it.
 */
export function bestOmahaByKeys(
  hole: ArrayLike<Card>,
  board: ArrayLike<Card>,
  rankTable: Int32Array,
  flushTable: Int32Array,
): number {
  let boardSuits = 0;
  for (let i = 0; i < board.length; i++) boardSuits += SUIT_KEY[board[i]!]!;
  let flushSuit = -1;
  for (let suit = 0; suit < 4; suit++) if (((boardSuits >> (3 * suit)) & 7) >= 3) flushSuit = suit;

  let pairs = 0;
  for (let i = 0; i < hole.length; i++) {
    for (let j = i + 1; j < hole.length; j++) {
      const a = hole[i]!;
      const b = hole[j]!;
      pairKeys[pairs] = RANK_KEY[a]! + RANK_KEY[b]!;
      pairSuited[pairs++] = suitedMask(flushSuit, a, b);
    }
  }
  let triples = 0;
  for (let i = 0; i < board.length; i++) {
    for (let j = i + 1; j < board.length; j++) {
      for (let k = j + 1; k < board.length; k++) {
        const a = board[i]!;
        const b = board[j]!;
        const c = board[k]!;
        tripleKeys[triples] = RANK_KEY[a]! + RANK_KEY[b]! + RANK_KEY[c]!;
        tripleSuited[triples++] = suitedMask(flushSuit, a, b, c);
      }
    }
  }

  let best = 0;
  for (let t = 0; t < triples; t++) {
    const tripleKey = tripleKeys[t]!;
    for (let p = 0; p < pairs; p++) {
      const value = rankTable[indexOfKey(tripleKey + pairKeys[p]!, 5)]!;
      if (value > best) best = value;
    }
  }
  if (flushSuit >= 0) {
    for (let t = 0; t < triples; t++) {
      const tripleMask = tripleSuited[t]!;
      if (tripleMask === 0) continue;
      for (let p = 0; p < pairs; p++) {
        const pairMask = pairSuited[p]!;
        if (pairMask === 0) continue;
        const value = flushTable[tripleMask | pairMask]!;
        if (value > best) best = value;
      }
    }
  }
  return best;
}
