import { ACE, rankOf, suitOf, type Card, type Rank } from '../cards.js';
import { popcount } from './high.js';
import { rankRun } from './names.js';
import type { Ranking } from './ranking.js';
import { subsetBest, subsetBestOfParts } from './telesina.js';

/**
 * Badugi (as PokerKit and the PHH standard): the ace is low; a hand is the largest subset of the four cards
 * with all suits and all ranks different, and a larger hand beats a smaller one. Among equal sizes the
 * lower hand from the highest card down wins, which is comparing the ace-low rank masks as numbers. So
 * the value is the size above a mirrored mask: higher is better.
 */
const MASKS = 1 << 13;

/** Ace-low bit: A = bit 0, deuce = bit 1 … king = bit 12. */
const lowBit = (card: Card): number => 1 << ((rankOf(card) + 1) % 13);

/** Bit i back to a card rank (ace, deuce, …, king), highest first. */
const ranksOfMask = (mask: number): Rank[] => {
  const ranks: Rank[] = [];
  for (let bit = 12; bit >= 0; bit--) if ((mask >> bit) & 1) ranks.push(bit === 0 ? ACE : bit - 1);
  return ranks;
};

const sizeOf = (value: number): number => Math.floor(value / MASKS);
const maskOf = (value: number): number => MASKS - 1 - (value % MASKS);

function evaluateBadugi(cards: readonly Card[]): number {
  let best = 0;
  // Every non-empty subset of the four cards, as a bit set of their indices.
  for (let subset = 1; subset < 1 << 4; subset++) {
    let ranks = 0;
    let suits = 0;
    let valid = true;
    for (let i = 0; i < 4 && valid; i++) {
      if (((subset >> i) & 1) === 0) continue;
      const card = cards[i]!;
      const suit = 1 << suitOf(card);
      valid = (ranks & lowBit(card)) === 0 && (suits & suit) === 0;
      ranks |= lowBit(card);
      suits |= suit;
    }
    if (valid) best = Math.max(best, popcount(subset) * MASKS + (MASKS - 1 - ranks));
  }
  return best;
}

export const badugiRanking: Ranking = {
  id: 'badugi',
  handSize: 4,
  evaluate: evaluateBadugi,
  best: (cards) => subsetBest(evaluateBadugi, 4, cards),
  bestOfParts: (own, board) => subsetBestOfParts(evaluateBadugi, 4, own, board),
  describe(value) {
    const size = sizeOf(value);
    const run = rankRun(ranksOfMask(maskOf(value)));
    return size === 4 ? `4-card badugi, ${run}` : `${size}-card hand, ${run}`;
  },
  className: (value) => `badugi-${sizeOf(value)}`,
};
