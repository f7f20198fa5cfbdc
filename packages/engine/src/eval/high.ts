import type { Card, Rank } from '../cards.js';
import { buildRankTable, indexOfKey, RANK_KEY } from './rank-index.js';

/**
 * The "high" family of rankings: standard poker and its variants that differ only in which ace-low
 * straight exists and whether a flush beats a full house (short-deck hold'em, Americana), plus the
 * ace-high-only ranking under 2-7 lowball.
 *
 * A value is `position * 13^5 + tie-break ranks in base 13 + 1`: higher is better, equal values tie,
 * and the value alone names the hand.
 */
export const HandClass = {
  HIGH_CARD: 0,
  PAIR: 1,
  TWO_PAIR: 2,
  THREE_OF_A_KIND: 3,
  STRAIGHT: 4,
  FLUSH: 5,
  FULL_HOUSE: 6,
  FOUR_OF_A_KIND: 7,
  STRAIGHT_FLUSH: 8,
} as const;
export type HandClass = (typeof HandClass)[keyof typeof HandClass];

export interface HighRules {
  /** The lowest rank of the deck, which the ace sits below in the lowest straight; null: the ace is only high. */
  readonly wheelBase: Rank | null;
  readonly flushBeatsFullHouse: boolean;
}

export const STANDARD_RULES: HighRules = { wheelBase: 0, flushBeatsFullHouse: false };
export const ACE_HIGH_ONLY_RULES: HighRules = { wheelBase: null, flushBeatsFullHouse: false };
export const SHORT_DECK_RULES: HighRules = { wheelBase: 4, flushBeatsFullHouse: true };
export const PIQUET_RULES: HighRules = { wheelBase: 5, flushBeatsFullHouse: true };

const CLASS_STRIDE = 13 ** 5;
const ACE = 12;

/** Per card: its suit's 3-bit counter, so a sum of up to seven cards counts every suit. */
export const SUIT_KEY = new Int32Array(52);
/** For a summed suit key: the suit with five or more cards, or -1. */
export const FLUSH_SUIT = new Int8Array(1 << 12).fill(-1);
for (let card = 0; card < 52; card++) SUIT_KEY[card] = 1 << (3 * (card & 3));
for (let key = 0; key < FLUSH_SUIT.length; key++) {
  for (let suit = 0; suit < 4; suit++) if (((key >> (3 * suit)) & 7) >= 5) FLUSH_SUIT[key] = suit;
}

export class HighEvaluator {
  /** Non-flush value of every rank multiset of 5 to 7 cards, by rank index. */
  readonly rankTable: Int32Array;
  /** Value of the best straight flush or flush in a suit holding these ranks (five or more bits set). */
  readonly flushTable: Int32Array;
  readonly positionOf: readonly number[];
  readonly classAt: readonly HandClass[];

  constructor(readonly rules: HighRules) {
    const order: HandClass[] = [
      HandClass.HIGH_CARD,
      HandClass.PAIR,
      HandClass.TWO_PAIR,
      HandClass.THREE_OF_A_KIND,
      HandClass.STRAIGHT,
      ...(rules.flushBeatsFullHouse
        ? [HandClass.FULL_HOUSE, HandClass.FLUSH]
        : [HandClass.FLUSH, HandClass.FULL_HOUSE]),
      HandClass.FOUR_OF_A_KIND,
      HandClass.STRAIGHT_FLUSH,
    ];
    this.classAt = order;
    const positionOf = new Array<number>(9);
    order.forEach((handClass, position) => (positionOf[handClass] = position));
    this.positionOf = positionOf;
    this.rankTable = buildRankTable((counts) => this.valueOfCounts(counts));
    this.flushTable = new Int32Array(1 << 13);
    for (let mask = 0; mask < 1 << 13; mask++) {
      if (popcount(mask) < 5) continue;
      const top = this.straightTop(mask);
      this.flushTable[mask] =
        top >= 0
          ? this.encode(HandClass.STRAIGHT_FLUSH, [top])
          : this.encode(HandClass.FLUSH, topRanks(mask, 5));
    }
  }

  encode(handClass: HandClass, ranks: readonly Rank[]): number {
    let value = this.positionOf[handClass]!;
    for (let i = 0; i < 5; i++) value = value * 13 + (ranks[i] ?? 0);
    return value + 1;
  }

  /** The class and tie-break ranks (highest first) that a value encodes. */
  decode(value: number): { handClass: HandClass; ranks: Rank[] } {
    let rest = value - 1;
    const ranks: Rank[] = [];
    for (let i = 0; i < 5; i++) {
      ranks.unshift(rest % 13);
      rest = Math.floor(rest / 13);
    }
    return { handClass: this.classAt[rest]!, ranks };
  }

  handClassOf(value: number): HandClass {
    return this.classAt[Math.floor((value - 1) / CLASS_STRIDE)]!;
  }

  /** The top rank of the best straight within a rank mask, or -1. */
  straightTop(mask: number): Rank {
    for (let top = ACE; top >= 4; top--) {
      const run = 0b11111 << (top - 4);
      if ((mask & run) === run) return top;
    }
    const base = this.rules.wheelBase;
    if (base !== null) {
      const wheel = (1 << ACE) | (0b1111 << base);
      if ((mask & wheel) === wheel) return base + 3;
    }
    return -1;
  }

  private valueOfCounts(counts: readonly number[]): number {
    let all = 0;
    let pairs = 0;
    let trips = 0;
    let quads = 0;
    for (let rank = 0; rank <= ACE; rank++) {
      const count = counts[rank]!;
      const bit = count > 0 ? 1 << rank : 0;
      all |= bit;
      if (count === 2) pairs |= bit;
      else if (count === 3) trips |= bit;
      else if (count === 4) quads |= bit;
    }
    if (quads !== 0) {
      const quad = topRank(quads);
      return this.encode(HandClass.FOUR_OF_A_KIND, [quad, ...topRanks(all & ~(1 << quad), 1)]);
    }
    if (trips !== 0 && (pairs !== 0 || (trips & (trips - 1)) !== 0)) {
      const trip = topRank(trips);
      return this.encode(HandClass.FULL_HOUSE, [trip, topRank((trips | pairs) & ~(1 << trip))]);
    }
    const top = this.straightTop(all);
    if (top >= 0) return this.encode(HandClass.STRAIGHT, [top]);
    if (trips !== 0) {
      const trip = topRank(trips);
      return this.encode(HandClass.THREE_OF_A_KIND, [trip, ...topRanks(all & ~trips, 2)]);
    }
    if (pairs !== 0) {
      const [high, low] = topRanks(pairs, 2);
      if (low === undefined) return this.encode(HandClass.PAIR, [high!, ...topRanks(all & ~pairs, 3)]);
      return this.encode(HandClass.TWO_PAIR, [high!, low, ...topRanks(all & ~(1 << high!) & ~(1 << low), 1)]);
    }
    return this.encode(HandClass.HIGH_CARD, topRanks(all, 5));
  }

  /** The value of the best five of 5 to 7 cards, read from `cards[start]` on. */
  value(cards: ArrayLike<Card>, start = 0, count = cards.length - start): number {
    let key = 0;
    let suits = 0;
    for (let i = start; i < start + count; i++) {
      const card = cards[i]!;
      key += RANK_KEY[card]!;
      suits += SUIT_KEY[card]!;
    }
    const flushSuit = FLUSH_SUIT[suits]!;
    if (flushSuit >= 0) return this.flushTable[suitMask(cards, start, count, flushSuit)]!;
    return this.rankTable[indexOfKey(key, count)]!;
  }

  /** The value of the best five of a player's cards and the board's, 5 to 7 in all, without joining them. */
  valueOfParts(own: ArrayLike<Card>, board: ArrayLike<Card>): number {
    let key = 0;
    let suits = 0;
    for (let i = 0; i < own.length; i++) {
      key += RANK_KEY[own[i]!]!;
      suits += SUIT_KEY[own[i]!]!;
    }
    for (let i = 0; i < board.length; i++) {
      key += RANK_KEY[board[i]!]!;
      suits += SUIT_KEY[board[i]!]!;
    }
    const flushSuit = FLUSH_SUIT[suits]!;
    if (flushSuit >= 0) {
      return this.flushTable[
        suitMask(own, 0, own.length, flushSuit) | suitMask(board, 0, board.length, flushSuit)
      ]!;
    }
    return this.rankTable[indexOfKey(key, own.length + board.length)]!;
  }

  /** The value of exactly seven cards given one by one: the hot path of hold'em and stud. */
  value7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card): number {
    const suits =
      SUIT_KEY[a]! + SUIT_KEY[b]! + SUIT_KEY[c]! + SUIT_KEY[d]! + SUIT_KEY[e]! + SUIT_KEY[f]! + SUIT_KEY[g]!;
    const flushSuit = FLUSH_SUIT[suits]!;
    if (flushSuit >= 0) {
      let mask = 0;
      if ((a & 3) === flushSuit) mask |= 1 << (a >> 2);
      if ((b & 3) === flushSuit) mask |= 1 << (b >> 2);
      if ((c & 3) === flushSuit) mask |= 1 << (c >> 2);
      if ((d & 3) === flushSuit) mask |= 1 << (d >> 2);
      if ((e & 3) === flushSuit) mask |= 1 << (e >> 2);
      if ((f & 3) === flushSuit) mask |= 1 << (f >> 2);
      if ((g & 3) === flushSuit) mask |= 1 << (g >> 2);
      return this.flushTable[mask]!;
    }
    const key =
      RANK_KEY[a]! + RANK_KEY[b]! + RANK_KEY[c]! + RANK_KEY[d]! + RANK_KEY[e]! + RANK_KEY[f]! + RANK_KEY[g]!;
    return this.rankTable[indexOfKey(key, 7)]!;
  }
}

function suitMask(cards: ArrayLike<Card>, start: number, count: number, suit: number): number {
  let mask = 0;
  for (let i = start; i < start + count; i++) {
    const card = cards[i]!;
    if ((card & 3) === suit) mask |= 1 << (card >> 2);
  }
  return mask;
}

export function popcount(mask: number): number {
  let bits = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) bits++;
  return bits;
}

const topRank = (mask: number): Rank => 31 - Math.clz32(mask);

/** The highest `take` ranks of a mask, highest first. */
export function topRanks(mask: number, take = 13): Rank[] {
  const ranks: Rank[] = [];
  for (let rest = mask; rest !== 0 && ranks.length < take; rest &= ~(1 << topRank(rest)))
    ranks.push(topRank(rest));
  return ranks;
}

const evaluators = new Map<HighRules, HighEvaluator>();

/** The evaluator of a set of high rules, built on first use and shared by every ranking that needs it. */
export function highEvaluator(rules: HighRules): HighEvaluator {
  let evaluator = evaluators.get(rules);
  if (!evaluator) evaluators.set(rules, (evaluator = new HighEvaluator(rules)));
  return evaluator;
}

/** The standard high ranking's evaluator. */
export const standardHigh = (): HighEvaluator => highEvaluator(STANDARD_RULES);
