import type { Card } from '../cards.js';

/** The ways five (badugi: four) cards are ranked. */
export type RankingId =
  'high' | 'low8' | 'low27' | 'lowA5' | 'badugi' | 'shortdeck' | 'soko' | 'americana' | 'telesina' | 'draw32';

/** The value of cards that make no hand under the ranking (an 8-or-better low that does not qualify). */
export const NO_HAND = 0;

/**
 * How one hand of exactly `handSize` cards ranks. Values are numbers where higher is better and equal
 * values tie (also for the low rankings: the better low has the higher value); values of different
 * rankings are not comparable. Which cards may combine into the hand is the game's business
 * (see ./combine.ts), not the ranking's.
 */
export interface Ranking {
  readonly id: RankingId;
  /** Cards in one hand: 5, or 4 for badugi. */
  readonly handSize: number;
  /** The value of exactly `handSize` cards, or NO_HAND when they do not qualify. */
  evaluate(cards: readonly Card[]): number;
  /** The name of a hand for people ("Full house, kings over fives", "8-6-5-4-A low"); `cards` are its cards. */
  describe(value: number, cards: readonly Card[]): string;
  /** The class of a value ("flush", "four-flush", …): what a census counts. */
  className(value: number): string;
  /**
   * Telesina: with exactly two players the lowest straight flush beats the royal flush. Maps a value to
   * the one it has in a heads-up showdown; absent where heads-up changes nothing.
   */
  readonly headsUpValue?: (value: number) => number;
  /** Fast path: the best value of any `handSize` of 5 to 7 cards; where absent, combinations are tried. */
  readonly best?: (cards: ArrayLike<Card>) => number;
  /** Fast path: `best` of a player's own cards and the board's together, without joining them. */
  readonly bestOfParts?: (own: ArrayLike<Card>, board: ArrayLike<Card>) => number;
  /** Fast path: the best value of exactly two hole cards and three board cards. */
  readonly bestOmaha?: (hole: ArrayLike<Card>, board: ArrayLike<Card>) => number;
}
