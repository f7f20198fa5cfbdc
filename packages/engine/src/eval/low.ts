import { rankOf, type Card, type Rank } from '../cards.js';
import { popcount } from './high.js';
import { rankName, rankPlural, rankRun } from './names.js';
import { buildRankTable, indexOfKey, keyOfCards } from './rank-index.js';
import { NO_HAND, type Ranking } from './ranking.js';

/**
 * 8-or-better low: five different ranks from ace (low) to eight; straights and flushes do not count.
 * A low is a set of five ranks, kept as a mask with bit 0 = ace … bit 7 = eight. Comparing two lows from
 * the top card down is comparing their masks as numbers, so the value is 256 minus the mask.
 */
const LOW8_BIT = new Int32Array(52);
for (let card = 0; card < 52; card++) {
  const rank = rankOf(card);
  LOW8_BIT[card] = rank === 12 ? 1 : rank <= 6 ? 1 << (rank + 1) : 0;
}

/** For any set of qualifying ranks: the value of the five lowest, or NO_HAND for fewer than five. */
const LOW8_VALUE = new Int32Array(256);
for (let mask = 0; mask < 256; mask++) {
  let lowest = 0;
  for (let rest = mask, taken = 0; rest !== 0 && taken < 5; rest &= rest - 1, taken++) lowest |= rest & -rest;
  LOW8_VALUE[mask] = popcount(lowest) === 5 ? 256 - lowest : NO_HAND;
}

/** Ace-low rank (A = 0, 2 = 1 … K = 12) back to a card rank. */
const fromAceLow = (lowRank: number): Rank => (lowRank === 0 ? 12 : lowRank - 1);

function low8Mask(value: number): number {
  return 256 - value;
}

function lowRanksOfMask(mask: number): Rank[] {
  const ranks: Rank[] = [];
  for (let bit = 7; bit >= 0; bit--) if ((mask >> bit) & 1) ranks.push(fromAceLow(bit));
  return ranks;
}

export const low8Ranking: Ranking = {
  id: 'low8',
  handSize: 5,
  evaluate: (cards) => low8Best(cards),
  best: (cards) => low8Best(cards),
  bestOmaha: low8Omaha,
  describe: (value) => (value === NO_HAND ? 'No low' : `${rankRun(lowRanksOfMask(low8Mask(value)))} low`),
  className: (value) =>
    value === NO_HAND ? 'no-low' : `${rankName(lowRanksOfMask(low8Mask(value))[0]!)}-low`,
};

function low8Best(cards: ArrayLike<Card>): number {
  let mask = 0;
  for (let i = 0; i < cards.length; i++) mask |= LOW8_BIT[cards[i]!]!;
  return LOW8_VALUE[mask]!;
}

/** Best 8-or-better low of exactly two hole cards (two different low ranks) and three board cards. */
function low8Omaha(hole: ArrayLike<Card>, board: ArrayLike<Card>): number {
  let best = NO_HAND;
  for (let i = 0; i < board.length; i++) {
    for (let j = i + 1; j < board.length; j++) {
      for (let k = j + 1; k < board.length; k++) {
        const triple = LOW8_BIT[board[i]!]! | LOW8_BIT[board[j]!]! | LOW8_BIT[board[k]!]!;
        if (popcount(triple) !== 3) continue;
        for (let a = 0; a < hole.length; a++) {
          for (let b = a + 1; b < hole.length; b++) {
            const pair = LOW8_BIT[hole[a]!]! | LOW8_BIT[hole[b]!]!;
            if ((pair & triple) !== 0 || popcount(pair) !== 2) continue;
            const value = LOW8_VALUE[pair | triple]!;
            if (value > best) best = value;
          }
        }
      }
    }
  }
  return best;
}

/**
 * A-5 low (razz): the lowest five, ace low; straights and flushes do not count, pairs do. Scored like a
 * high hand of ace-low ranks without straights and flushes, then mirrored so that the better low is
 * higher; 6 and 7 cards take their best five from the rank table.
 */
const A5_CLASSES = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'full-house',
  'four-of-a-kind',
] as const;
const A5_TOP = 6 * 13 ** 5 + 1;

/** The A-5 score of five ranks given as ace-low counts: class, then ranks that decide, in base 13. */
function a5Score(lowCounts: readonly number[]): number {
  const groups: { rank: number; count: number }[] = [];
  for (let lowRank = 12; lowRank >= 0; lowRank--) {
    const count = lowCounts[lowRank]!;
    if (count > 0) groups.push({ rank: lowRank, count });
  }
  // Bigger groups decide first, then higher ranks: the order in which high poker compares.
  groups.sort((x, y) => y.count - x.count || y.rank - x.rank);
  const shape = groups.map((group) => group.count).join('');
  const handClass = ['11111', '2111', '221', '311', '32', '41'].indexOf(shape);
  let score = handClass;
  for (let i = 0; i < 5; i++) score = score * 13 + (groups[i]?.rank ?? 0);
  return score;
}

let a5Table: Int32Array | undefined;
function a5RankTable(): Int32Array {
  return (a5Table ??= buildRankTable((counts) => {
    const lowCounts = [counts[12]!, ...counts.slice(0, 12)];
    return A5_TOP - a5Score(lowCounts);
  }));
}

function a5Decode(value: number): { handClass: number; ranks: Rank[] } {
  let rest = A5_TOP - value;
  const ranks: Rank[] = [];
  for (let i = 0; i < 5; i++) {
    ranks.unshift(fromAceLow(rest % 13));
    rest = Math.floor(rest / 13);
  }
  return { handClass: rest, ranks };
}

export const lowA5Ranking: Ranking = {
  id: 'lowA5',
  handSize: 5,
  evaluate: (cards) => a5RankTable()[indexOfKey(keyOfCards(cards), 5)]!,
  best: (cards) => a5RankTable()[indexOfKey(keyOfCards(cards), cards.length)]!,
  describe: (value) => {
    const { handClass, ranks } = a5Decode(value);
    const first = ranks[0]!;
    switch (handClass) {
      case 0:
        return `${rankRun(ranks)} low`;
      case 1:
        return `Pair of ${rankPlural(first)}`;
      case 2:
        return `Two pair, ${rankPlural(first)} and ${rankPlural(ranks[1]!)}`;
      case 3:
        return `Three of a kind, ${rankPlural(first)}`;
      case 4:
        return `Full house, ${rankPlural(first)} over ${rankPlural(ranks[1]!)}`;
      default:
        return `Four of a kind, ${rankPlural(first)}`;
    }
  },
  className: (value) => A5_CLASSES[a5Decode(value).handClass]!,
};
