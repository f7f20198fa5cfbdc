import { ACE, makeCard, rankOf, suitOf, type Card, type Rank } from '../cards.js';
import { HandClass, highEvaluator, PIQUET_RULES, type HighEvaluator } from './high.js';
import { describeHigh, highClassName } from './high-rankings.js';
import type { Ranking, RankingId } from './ranking.js';

/**
 * Telesina, and what it shares with 32-card draw: both take their classes and rank tie-breaks from the
 * 32-card high ranking (flush above full house, T-9-8-7-A the lowest straight, as in Americana) and then
 * let suits, hearts > diamonds > clubs > spades, decide where their rules say. A value packs the class
 * position and the tie-break digits (ranks 0–12, suit strengths 0–3) in base 13, most significant first.
 */

/** Suit strength by card suit (c d h s): hearts 3 > diamonds 2 > clubs 1 > spades 0. */
const SUIT_STRENGTH: readonly number[] = [1, 2, 3, 0];
const SUIT_BY_STRENGTH: readonly string[] = ['spades', 'clubs', 'diamonds', 'hearts'];

let piquet: HighEvaluator | undefined;
const piquetHigh = (): HighEvaluator => (piquet ??= highEvaluator(PIQUET_RULES));

/**
 * Writes the suit strengths of the cards of `rank` into `out` from index `at` on, the strongest
 * first; returns the index after them.
 */
export function pushSuitStrengths(cards: readonly Card[], rank: Rank, out: number[], at: number): number {
  // Plain loops and an insertion sort: this runs for every five-card subset at a Telesina showdown.
  let end = at;
  for (let c = 0; c < cards.length; c++) {
    const card = cards[c]!;
    if (rankOf(card) !== rank) continue;
    const strength = SUIT_STRENGTH[suitOf(card)]!;
    let i = end++;
    while (i > at && out[i - 1]! < strength) {
      out[i] = out[i - 1]!;
      i--;
    }
    out[i] = strength;
  }
  return end;
}

/** The suit strengths of the cards of each rank in turn, the strongest first within a rank. */
export function suitStrengths(cards: readonly Card[], ranks: readonly Rank[]): number[] {
  const out: number[] = [];
  let end = 0;
  for (const rank of ranks) end = pushSuitStrengths(cards, rank, out, end);
  return out;
}

/** Scratch arrays for `subsetBest`: one per subset size (4 or 5), reused, never kept by an evaluator. */
const SCRATCH: Card[][] = [[], [], [], [], [], [], []];
/** Scratch for `bestOfParts`: a player's cards and the board's, joined without a new array. */
const JOINED: Card[] = [];

/**
 * The best value of any `size` of `cards` under `evaluate` (what `bestHandOf` finds, without the
 * closures and copies): one call for exactly `size` cards, one per left-out card for one more, else
 * every subset in turn. -1 when there are fewer than `size` cards. For the rankings that evaluate
 * five (badugi: four) cards at a time and have no table for more.
 */
export function subsetBest(
  evaluate: (cards: readonly Card[]) => number,
  size: number,
  cards: ArrayLike<Card>,
): number {
  const n = cards.length;
  if (n < size) return -1;
  const subset = SCRATCH[size]!;
  if (subset.length !== size) subset.length = size;
  if (n === size) {
    for (let i = 0; i < size; i++) subset[i] = cards[i]!;
    return evaluate(subset);
  }
  let best = -1;
  if (n === size + 1) {
    for (let out = 0; out < n; out++) {
      for (let i = 0, j = 0; i < n; i++) if (i !== out) subset[j++] = cards[i]!;
      const value = evaluate(subset);
      if (value > best) best = value;
    }
    return best;
  }
  // Any other count: the subsets by their index lists in lexicographic order.
  const at: number[] = [];
  for (let i = 0; i < size; i++) at.push(i);
  for (;;) {
    for (let i = 0; i < size; i++) subset[i] = cards[at[i]!]!;
    const value = evaluate(subset);
    if (value > best) best = value;
    let k = size - 1;
    while (k >= 0 && at[k] === n - size + k) k--;
    if (k < 0) return best;
    at[k]!++;
    for (let i = k + 1; i < size; i++) at[i] = at[i - 1]! + 1;
  }
}

/** `subsetBest` of a player's own cards and the board's together. */
export function subsetBestOfParts(
  evaluate: (cards: readonly Card[]) => number,
  size: number,
  own: ArrayLike<Card>,
  board: ArrayLike<Card>,
): number {
  if (board.length === 0) return subsetBest(evaluate, size, own);
  let k = 0;
  for (let i = 0; i < own.length; i++) JOINED[k++] = own[i]!;
  for (let i = 0; i < board.length; i++) JOINED[k++] = board[i]!;
  if (JOINED.length !== k) JOINED.length = k;
  return subsetBest(evaluate, size, JOINED);
}

export interface SuitRankedRules {
  readonly id: RankingId;
  /** How many tie-break digits follow the class: the most any class uses. */
  readonly digitCount: number;
  /**
   * Writes into `out` from index 0 the tie-break digits of a hand, given its class and its five
   * (zero-padded) rank tie-breaks, and returns how many (`ranks` and `out` are scratch: do not keep them).
   */
  tieBreak(cards: readonly Card[], handClass: HandClass, ranks: readonly Rank[], out: number[]): number;
  /** Where the five rank tie-breaks start among the digits. */
  rankOffset(handClass: HandClass): number;
}

/** Scratch for `evaluate`: the five tie-break ranks and the digits (evaluation is never reentrant). */
const RANKS: Rank[] = [0, 0, 0, 0, 0];
const DIGITS: number[] = new Array<number>(32).fill(0);

/** A 5-card ranking of the 32-card deck whose ties suits break as `rules` say. */
export function suitRanked32(rules: SuitRankedRules): Ranking {
  const { digitCount } = rules;
  const unpack = (value: number): { handClass: HandClass; digits: number[] } => {
    const digits: number[] = [];
    let rest = value;
    for (let i = 0; i < digitCount; i++) {
      digits.unshift(rest % 13);
      rest = Math.floor(rest / 13);
    }
    return { handClass: piquetHigh().classAt[rest]!, digits };
  };
  /** The 32-card high value with the same class and ranks: what names the hand. */
  const highValue = (value: number): number => {
    const { handClass, digits } = unpack(value);
    const offset = rules.rankOffset(handClass);
    return piquetHigh().encode(handClass, digits.slice(offset, offset + 5));
  };
  const evaluate = (cards: readonly Card[]): number => {
    const high = piquetHigh();
    // The 32-card high value's class and ranks, as `decode` reads them, without its arrays.
    let rest = high.value(cards, 0, 5) - 1;
    for (let i = 4; i >= 0; i--) {
      RANKS[i] = rest % 13;
      rest = Math.floor(rest / 13);
    }
    const handClass = high.classAt[rest]!;
    const count = rules.tieBreak(cards, handClass, RANKS, DIGITS);
    let value = high.positionOf[handClass]!;
    for (let i = 0; i < digitCount; i++) value = value * 13 + (i < count ? DIGITS[i]! : 0);
    return value;
  };
  return {
    id: rules.id,
    handSize: 5,
    evaluate,
    best: (cards) => subsetBest(evaluate, 5, cards),
    bestOfParts: (own, board) => subsetBestOfParts(evaluate, 5, own, board),
    describe(value) {
      const name = describeHigh(piquetHigh(), highValue(value));
      const { handClass, digits } = unpack(value);
      if (handClass !== HandClass.FLUSH && handClass !== HandClass.STRAIGHT_FLUSH) return name;
      // "Flush of hearts, ace high": the suit matters in these games. Its strength is the digit just
      // before the ranks where they do not lead, else the one just after them.
      const offset = rules.rankOffset(handClass);
      const suit = SUIT_BY_STRENGTH[digits[offset === 0 ? 5 : offset - 1]!]!;
      const [kind, rest] = name.split(', ');
      return `${kind!} of ${suit}${rest === undefined ? '' : `, ${rest}`}`;
    },
    // Americana ranks by the same 32-card high rules, so its class names fit these values.
    className: (value) => highClassName(piquetHigh(), highValue(value)),
  };
}

const base = suitRanked32({
  id: 'telesina',
  digitCount: 10,
  tieBreak(cards, handClass, ranks, out) {
    let end = 0;
    if (handClass === HandClass.FLUSH) {
      end = pushSuitStrengths(cards, ranks[0]!, out, end); // by suit alone, then ranks
      for (let i = 0; i < 5; i++) out[end++] = ranks[i]!;
      return end;
    }
    for (let i = 0; i < 5; i++) out[end++] = ranks[i]!;
    // Then the suits of: the top card (of two pair, the higher pair, its highest suit first), the
    // kickers of one pair from the highest down, every card of a high-card hand; quads, full houses
    // and trips go by rank alone.
    switch (handClass) {
      case HandClass.STRAIGHT_FLUSH:
      case HandClass.STRAIGHT:
      case HandClass.TWO_PAIR:
        end = pushSuitStrengths(cards, ranks[0]!, out, end);
        break;
      case HandClass.PAIR:
        for (let i = 1; i < 4; i++) end = pushSuitStrengths(cards, ranks[i]!, out, end);
        break;
      case HandClass.HIGH_CARD:
        for (let i = 0; i < 5; i++) end = pushSuitStrengths(cards, ranks[i]!, out, end);
        break;
      default:
        break;
    }
    return end;
  },
  rankOffset: (handClass) => (handClass === HandClass.FLUSH ? 1 : 0),
});

const TEN: Rank = 8;
const HEARTS = 2;
const SPADES = 3;
const suited = (ranks: readonly Rank[], suit: number): Card[] => ranks.map((rank) => makeCard(rank, suit));

/**
 * Heads-up, T-9-8-7-A straight flushes move just above the best royal flush (hearts), keeping their suit
 * order among themselves. The seed only says the hearts royal loses to the spades T-9-8-7-A; we read it
 * as any lowest straight flush beating any royal flush, and so every other straight flush as well.
 */
let headsUp: { low: number; high: number; royal: number; shift: number } | undefined;
/** The T-9-8-7-A straight flushes' values (from `low` to `high`), the best royal's, and the move. */
function headsUpBounds(): NonNullable<typeof headsUp> {
  if (headsUp !== undefined) return headsUp;
  const wheel = [TEN, TEN - 1, TEN - 2, TEN - 3, ACE];
  const low = base.evaluate(suited(wheel, SPADES));
  const royal = base.evaluate(suited([ACE, ACE - 1, ACE - 2, ACE - 3, TEN], HEARTS));
  return (headsUp = { low, high: base.evaluate(suited(wheel, HEARTS)), royal, shift: royal + 1 - low });
}

/** A value that headsUpValue moved back to its ordinary one, which names the hand. */
function unmoved(value: number): number {
  const { royal, shift } = headsUpBounds();
  return value > royal ? value - shift : value;
}

export const telesinaRanking: Ranking = {
  ...base,
  describe: (value, cards) => base.describe(unmoved(value), cards),
  className: (value) => base.className(unmoved(value)),
  headsUpValue(value) {
    const { low, high, shift } = headsUpBounds();
    return value >= low && value <= high ? value + shift : value;
  },
};
