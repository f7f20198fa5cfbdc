/**
 * The strength of the up cards (one to four of them) of the five-card stud games that rank hands
 * their own way, for who acts first from the second betting round (RULES.md "Who acts first in the
 * stud games"; docs/rules.md "Order of action"). Higher is better; equal values are equal showing
 * hands (the one nearest the dealer's left acts first). Only the player's own up cards count: the
 * Vela and a stud community card are on the board, not in his cards.
 *
 * - Sökö: four of a kind > three of a kind > two pair > four-flush > four-straight > one pair > high
 *   card (a four-flush and four-straight need four up cards; four suited cards in sequence count as
 *   the four-flush; A-2-3-4 is a four-straight, four high). Then ranks: the quads, trips or pairs
 *   first, then the other cards from the highest; a four-straight by its top card. Suits never count.
 * - Telesina: four of a kind > three of a kind > two pair > one pair > high card (a flush or a
 *   straight needs five cards), then ranks as in Sökö, then suits hearts > diamonds > clubs > spades
 *   as its ranking breaks ties (RULES.md §10): high card by the suit of each card from the highest
 *   rank down (Ah Kc beats Ad Kc); one pair by the suits of the side cards from the highest; two pair
 *   by the suits of the higher pair, strongest first; trips and quads by rank alone.
 * - Americana and the 7-card studs: the standard order of `showingValue` in ./hand.ts (a flush or
 *   straight needs five cards, so Americana's flush-over-full-house never shows on four up cards).
 */
import { ACE, rankOf, suitOf, type Card, type Rank } from '../cards.js';
import type { MaybeCard } from './types.js';

/** The games whose showing hands are judged by this module. */
export type OwnShowingOrder = 'soko' | 'telesina';

/** Sökö's showing classes, weakest first. */
const SOKO = { high: 0, pair: 1, fourStraight: 2, fourFlush: 3, twoPair: 4, trips: 5, quads: 6 } as const;
/** Telesina's (and the standard) showing classes, weakest first. */
const PLAIN = { high: 0, pair: 1, twoPair: 2, trips: 3, quads: 4 } as const;

/** Telesina suit strength by card suit (c d h s): hearts 3 > diamonds 2 > clubs 1 > spades 0. */
const TELESINA_SUIT: readonly number[] = [1, 2, 3, 0];

/** The up cards that are known. */
function upCards(cards: readonly MaybeCard[], up: readonly boolean[]): Card[] {
  const out: Card[] = [];
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    if (up[i] === true && card !== null && card !== undefined) out.push(card);
  }
  return out;
}

/**
 * The ranks grouped, into `GROUP_RANKS` and `GROUP_SIZES` (scratch lists: this runs for every player
 * at every later betting round): the largest group first, equal groups the higher rank first.
 * Returns the number of groups.
 */
const GROUP_RANKS: Rank[] = [];
const GROUP_SIZES: number[] = [];
function groups(cards: readonly Card[]): number {
  let n = 0;
  for (const card of cards) {
    const rank = rankOf(card);
    let i = 0;
    while (i < n && GROUP_RANKS[i] !== rank) i++;
    if (i === n) {
      GROUP_RANKS[n] = rank;
      GROUP_SIZES[n] = 1;
      n++;
    } else GROUP_SIZES[i]!++;
  }
  for (let i = 1; i < n; i++) {
    const rank = GROUP_RANKS[i]!;
    const size = GROUP_SIZES[i]!;
    let j = i;
    while (
      j > 0 &&
      (GROUP_SIZES[j - 1]! < size || (GROUP_SIZES[j - 1] === size && GROUP_RANKS[j - 1]! < rank))
    ) {
      GROUP_RANKS[j] = GROUP_RANKS[j - 1]!;
      GROUP_SIZES[j] = GROUP_SIZES[j - 1]!;
      j--;
    }
    GROUP_RANKS[j] = rank;
    GROUP_SIZES[j] = size;
  }
  GROUP_RANKS.length = n;
  GROUP_SIZES.length = n;
  return n;
}

/** The class of a hand of at most four cards by its rank groups (no flushes or straights). */
function plainClass(sizes: readonly number[]): number {
  const top = sizes[0] ?? 0;
  const second = sizes[1] ?? 0;
  if (top === 4) return PLAIN.quads;
  if (top === 3) return PLAIN.trips;
  if (top === 2) return second === 2 ? PLAIN.twoPair : PLAIN.pair;
  return PLAIN.high;
}

/** Packs a class, up to four ranks and up to four suit strengths into one number (higher = better). */
function pack(handClass: number, ranks: readonly Rank[], suits: readonly number[] = []): number {
  let value = handClass;
  for (let i = 0; i < 4; i++) value = value * 14 + (ranks[i] ?? -1) + 1;
  for (let i = 0; i < 4; i++) value = value * 5 + (suits[i] ?? -1) + 1;
  return value;
}

/** The rank of the four (deuce = 0): the top card of A-2-3-4. */
const FOUR: Rank = 2;

/** The top card of four consecutive ranks among exactly four up cards, or null (A-2-3-4: the four). */
function fourStraightTop(cards: readonly Card[]): Rank | null {
  if (cards.length !== 4) return null;
  let mask = 0;
  for (const card of cards) mask |= 1 << rankOf(card);
  for (let top = ACE; top >= 3; top--) if (mask === 0b1111 << (top - 3)) return top;
  return mask === ((1 << ACE) | 0b111) ? FOUR : null;
}

function sokoStrength(cards: readonly Card[]): number {
  groups(cards);
  const ranks = GROUP_RANKS;
  const plain = plainClass(GROUP_SIZES);
  if (plain === PLAIN.quads) return pack(SOKO.quads, ranks);
  if (plain === PLAIN.trips) return pack(SOKO.trips, ranks);
  if (plain === PLAIN.twoPair) return pack(SOKO.twoPair, ranks);
  if (cards.length === 4 && cards.every((card) => suitOf(card) === suitOf(cards[0]!))) {
    return pack(SOKO.fourFlush, ranks);
  }
  const straightTop = fourStraightTop(cards);
  if (straightTop !== null) return pack(SOKO.fourStraight, [straightTop]);
  return pack(plain === PLAIN.pair ? SOKO.pair : SOKO.high, ranks);
}

/** Scratch for `suitsOf`. */
const SUITS: number[] = [];

/**
 * The suit strengths of the cards of the groups `from` to `to` (exclusive) of `GROUP_RANKS`, in rank
 * order, the strongest first within a rank (into a scratch list).
 */
function suitsOf(cards: readonly Card[], from: number, to: number): number[] {
  SUITS.length = 0;
  for (let g = from; g < to; g++) {
    const rank = GROUP_RANKS[g]!;
    const start = SUITS.length;
    for (const card of cards) {
      if (rankOf(card) !== rank) continue;
      const strength = TELESINA_SUIT[suitOf(card)]!;
      let i = SUITS.length;
      SUITS.push(strength);
      while (i > start && SUITS[i - 1]! < strength) {
        SUITS[i] = SUITS[i - 1]!;
        i--;
      }
      SUITS[i] = strength;
    }
  }
  return SUITS;
}

function telesinaStrength(cards: readonly Card[]): number {
  const count = groups(cards);
  const ranks = GROUP_RANKS;
  const handClass = plainClass(GROUP_SIZES);
  switch (handClass) {
    case PLAIN.high:
      return pack(handClass, ranks, suitsOf(cards, 0, count));
    case PLAIN.pair:
      return pack(handClass, ranks, suitsOf(cards, 1, count));
    case PLAIN.twoPair:
      return pack(handClass, ranks, suitsOf(cards, 0, Math.min(1, count)));
    default:
      return pack(handClass, ranks);
  }
}

/**
 * The showing strength of a player's up cards under Sökö's or Telesina's own ranking (see the module
 * comment): higher is better, equal is equal.
 */
export function showingStrength(
  order: OwnShowingOrder,
  cards: readonly MaybeCard[],
  up: readonly boolean[],
): number {
  const shown = upCards(cards, up);
  return order === 'soko' ? sokoStrength(shown) : telesinaStrength(shown);
}
