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

const piquetHigh = (): HighEvaluator => highEvaluator(PIQUET_RULES);

/** The suit strengths of the cards of each rank in turn, the strongest first within a rank. */
export function suitStrengths(cards: readonly Card[], ranks: readonly Rank[]): number[] {
  // Plain loops and an insertion sort: this runs for every five-card subset at a Telesina showdown.
  const out: number[] = [];
  for (const rank of ranks) {
    const start = out.length;
    for (const card of cards) {
      if (rankOf(card) !== rank) continue;
      const strength = SUIT_STRENGTH[suitOf(card)]!;
      let i = out.length;
      out.push(strength);
      while (i > start && out[i - 1]! < strength) {
        out[i] = out[i - 1]!;
        i--;
      }
      out[i] = strength;
    }
  }
  return out;
}

export interface SuitRankedRules {
  readonly id: RankingId;
  /** How many tie-break digits follow the class: the most any class uses. */
  readonly digitCount: number;
  /** The tie-break digits of a hand, given its class and its five (zero-padded) rank tie-breaks. */
  tieBreak(cards: readonly Card[], handClass: HandClass, ranks: readonly Rank[]): number[];
  /** Where the five rank tie-breaks start among the digits. */
  rankOffset(handClass: HandClass): number;
}

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
  return {
    id: rules.id,
    handSize: 5,
    evaluate(cards) {
      const high = piquetHigh();
      const { handClass, ranks } = high.decode(high.value(cards, 0, 5));
      const digits = rules.tieBreak(cards, handClass, ranks);
      let value = high.positionOf[handClass]!;
      for (let i = 0; i < digitCount; i++) value = value * 13 + (digits[i] ?? 0);
      return value;
    },
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

/** The ranks whose cards' suits break Telesina ties after the ranks (flushes aside). */
function telesinaSuitRanks(handClass: HandClass, ranks: readonly Rank[]): Rank[] {
  switch (handClass) {
    case HandClass.STRAIGHT_FLUSH:
    case HandClass.STRAIGHT:
    case HandClass.TWO_PAIR:
      return [ranks[0]!]; // the top card; of two pair, the higher pair, its highest suit first
    case HandClass.PAIR:
      return ranks.slice(1, 4); // the kickers from the highest down
    case HandClass.HIGH_CARD:
      return [...ranks];
    default:
      return []; // quads, full houses and trips: by rank alone
  }
}

const base = suitRanked32({
  id: 'telesina',
  digitCount: 10,
  tieBreak: (cards, handClass, ranks) =>
    handClass === HandClass.FLUSH
      ? [...suitStrengths(cards, [ranks[0]!]), ...ranks] // by suit alone, then ranks
      : [...ranks, ...suitStrengths(cards, telesinaSuitRanks(handClass, ranks))],
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
