/**
 * Games are data: a closed registry of variant records, composed from a few building blocks. The hand
 * state machine (./hand.ts) reads nothing about a game but its record here and its showdown rules in
 * ../eval/games.ts.
 */
import type { Card } from '../cards.js';
import type { DeckKind } from '../deck.js';
import { SHOWDOWN_RULES, type GameId, type ShowdownRules } from '../eval/games.js';
import type { VariantId } from './types.js';

/** One street: the cards dealt at its start, then (optionally) a draw and a betting round. */
export interface StreetSpec {
  /** Cards dealt to each player at the start of the street: true = face up. Empty = none. */
  readonly hole: readonly boolean[];
  /** Community cards dealt at the start of the street (flop 3, turn 1, Telesina's Vela 1). */
  readonly board: number;
  /** Whether a card is burned before this street's cards (when the engine deals from its deck). */
  readonly burn: boolean;
  /** A draw (discard and replace) precedes this street's betting. */
  readonly draw: boolean;
  /** Fixed limit: this street's bets are big bets. */
  readonly bigBet: boolean;
  /** Stud's last street: when the deck cannot give every player a card, one community card instead, and no betting. */
  readonly communityIfShort: boolean;
}

/** How the bring-in card is chosen (RULES.md §6, §7, §9, §10, §12). */
export type BringInRule =
  /** 7-card stud and hi/lo: lowest upcard in limit, highest in pot/half-pot/no limit; suits c < d < h < s. */
  | 'stud'
  /** Razz: highest upcard, ace low; equal ranks: the highest suit. */
  | 'razz'
  /** Sökö, Americana: highest upcard; suits s > h > d > c. */
  | 'highest'
  /** Telesina: highest upcard; suits h > d > c > s. */
  | 'telesina';

/** Who opens the betting rounds after the first (RULES.md §3, §6, §8, §11). */
export type LaterOpener =
  /** The first active player left of the button (position 0 onward). */
  | 'button'
  /** The best hand showing (stud games); ties: nearest the dealer's left. */
  | 'showing'
  /** 32-card draw: the first active player after the big blind. */
  | 'after-big-blind';

/**
 * How the showing hand is judged for the opener of later stud rounds: 'high' the standard order
 * (7-card stud and hi/lo, Americana), 'low' razz's, 'soko' and 'telesina' those games' own rankings
 * of the up cards (./showing.ts).
 */
export type ShowingOrder = 'high' | 'low' | 'soko' | 'telesina';

export interface Variant {
  readonly id: VariantId;
  readonly name: string;
  readonly deck: DeckKind;
  /** Seat limit (RULES.md §13; PHH-only variants: PokerKit's). */
  readonly seats: number;
  /** 'blinds': button and blinds; 'bring-in': stud games (antes and the bring-in). */
  readonly forced: 'blinds' | 'bring-in';
  readonly streets: readonly StreetSpec[];
  readonly bringInRule: BringInRule;
  readonly laterOpener: LaterOpener;
  readonly showing: ShowingOrder;
  /** Index of the street whose dealing makes the pot rakeable ("no flop, no drop"). */
  readonly rakeStreet: number;
  /** Whether reaching the rake street needs a draw rather than a deal (draw games: the street with the first draw). */
  readonly rakeOnDraw: boolean;
  /** 32-card draw: the split agreement is offered after the draw. */
  readonly splitOffer: boolean;
  /** Showdown: whose hand is shown first when nobody bet on the last round. */
  readonly showdownFirst: 'button' | 'showing' | 'after-big-blind';
  readonly showdown: ShowdownRules;
}

const street = (hole: readonly boolean[], options: Partial<Omit<StreetSpec, 'hole'>> = {}): StreetSpec => ({
  hole,
  board: options.board ?? 0,
  burn: options.burn ?? false,
  draw: options.draw ?? false,
  bigBet: options.bigBet ?? false,
  communityIfShort: options.communityIfShort ?? false,
});

const down = (n: number): boolean[] => Array.from({ length: n }, () => false);

/** Hold'em-like: hole cards, flop, turn, river, with burns; big bets from the turn. */
const flopStreets = (holeCards: number): StreetSpec[] => [
  street(down(holeCards)),
  street([], { board: 3, burn: true }),
  street([], { board: 1, burn: true, bigBet: true }),
  street([], { board: 1, burn: true, bigBet: true }),
];

/** 7-card stud: 2 down 1 up, three up, one down; big bets from 5th street. */
const studStreets: StreetSpec[] = [
  street([false, false, true]),
  street([true], { burn: true }),
  street([true], { burn: true, bigBet: true }),
  street([true], { burn: true, bigBet: true }),
  street([false], { burn: true, bigBet: true, communityIfShort: true }),
];

/**
 * Five-card stud shapes (Sökö, Americana, Telesina): 1 down 1 up, then three up; big bets from the
 * third round. The 32-card games burn nothing: six players and the Vela need 31 of the 32 cards.
 */
const fiveCardStudStreets = (burn: boolean): StreetSpec[] => [
  street([false, true]),
  street([true], { burn }),
  street([true], { burn, bigBet: true }),
  street([true], { burn, bigBet: true }),
];

/** Draw games: `cards` down, then `draws` draws, each followed by a round. */
const drawStreets = (cards: number, draws: number): StreetSpec[] => [
  street(down(cards)),
  ...Array.from({ length: draws }, (_, i) => street([], { draw: true, bigBet: draws === 1 || i >= 1 })),
];

interface Base {
  readonly name: string;
  readonly seats: number;
}

const flopGame = (id: GameId, base: Base, holeCards: number): Variant => ({
  id,
  ...base,
  deck: SHOWDOWN_RULES[id].deck,
  forced: 'blinds',
  streets: flopStreets(holeCards),
  bringInRule: 'stud',
  laterOpener: 'button',
  showing: 'high',
  rakeStreet: 1,
  rakeOnDraw: false,
  splitOffer: false,
  showdownFirst: 'button',
  showdown: SHOWDOWN_RULES[id],
});

const studGame = (
  id: GameId,
  base: Base,
  streets: readonly StreetSpec[],
  bringInRule: BringInRule,
  rakeStreet: number,
): Variant => ({
  id,
  ...base,
  deck: SHOWDOWN_RULES[id].deck,
  forced: 'bring-in',
  streets,
  bringInRule,
  laterOpener: 'showing',
  showing: id === 'razz' ? 'low' : id === 'soko' || id === 'telesina' ? id : 'high',
  rakeStreet,
  rakeOnDraw: false,
  splitOffer: false,
  showdownFirst: 'showing',
  showdown: SHOWDOWN_RULES[id],
});

const drawGame = (
  id: GameId,
  base: Base,
  cards: number,
  draws: number,
  opener: LaterOpener = 'button',
): Variant => ({
  id,
  ...base,
  deck: SHOWDOWN_RULES[id].deck,
  forced: 'blinds',
  streets: drawStreets(cards, draws),
  bringInRule: 'stud',
  laterOpener: opener,
  showing: 'high',
  rakeStreet: 1,
  rakeOnDraw: true,
  splitOffer: id === 'draw32',
  showdownFirst: opener === 'after-big-blind' ? 'after-big-blind' : 'button',
  showdown: SHOWDOWN_RULES[id],
});

/** The registry: the room's 13 games and the PHH-only variants. Closed: every GameId has a record. */
export const VARIANTS: Readonly<Record<VariantId, Variant>> = {
  holdem: flopGame('holdem', { name: "Texas Hold'em", seats: 10 }, 2),
  omaha: flopGame('omaha', { name: 'Omaha', seats: 8 }, 4),
  omaha5: flopGame('omaha5', { name: '5-card Omaha', seats: 8 }, 5),
  'omaha-hilo': flopGame('omaha-hilo', { name: 'Omaha Hi/Lo 8-or-better', seats: 8 }, 4),
  'omaha5-hilo': flopGame('omaha5-hilo', { name: '5-card Omaha Hi/Lo 8-or-better', seats: 8 }, 5),
  shortdeck: flopGame('shortdeck', { name: "Short-deck Hold'em", seats: 9 }, 2),
  stud: studGame('stud', { name: '7-card Stud', seats: 8 }, studStreets, 'stud', 1),
  'stud-hilo': studGame(
    'stud-hilo',
    { name: '7-card Stud Hi/Lo 8-or-better', seats: 8 },
    studStreets,
    'stud',
    1,
  ),
  razz: studGame('razz', { name: 'Razz', seats: 8 }, studStreets, 'razz', 1),
  soko: studGame('soko', { name: 'Sökö', seats: 8 }, fiveCardStudStreets(true), 'highest', 1),
  americana: studGame('americana', { name: 'Americana', seats: 6 }, fiveCardStudStreets(false), 'highest', 1),
  telesina: studGame(
    'telesina',
    { name: 'Telesina', seats: 6 },
    [...fiveCardStudStreets(false), street([], { board: 1, bigBet: true })],
    'telesina',
    1,
  ),
  draw5: drawGame('draw5', { name: '5-card Draw', seats: 6 }, 5, 1),
  'triple-draw-27': drawGame('triple-draw-27', { name: '2-7 Triple Draw', seats: 6 }, 5, 3),
  'single-draw-27': drawGame('single-draw-27', { name: '2-7 Single Draw', seats: 6 }, 5, 1),
  badugi: drawGame('badugi', { name: 'Badugi', seats: 6 }, 4, 3),
  draw32: drawGame('draw32', { name: '32-card Draw', seats: 5 }, 5, 1, 'after-big-blind'),
};

export const VARIANT_IDS = Object.keys(VARIANTS) as VariantId[];

/** The room's 13 games (RULES.md §3–§11). */
export const ROOM_VARIANT_IDS: readonly VariantId[] = [
  'holdem',
  'omaha',
  'omaha5',
  'omaha-hilo',
  'omaha5-hilo',
  'stud',
  'stud-hilo',
  'soko',
  'draw5',
  'triple-draw-27',
  'americana',
  'telesina',
  'draw32',
];

export function variantOf(id: VariantId): Variant {
  return VARIANTS[id];
}

/** Suit weights for the bring-in: higher = "higher" suit. Card suits: c d h s = 0..3. */
const TELESINA_SUIT = [1, 2, 3, 0] as const; // c=1 d=2 h=3 s=0: h > d > c > s

/**
 * A key that orders upcards for the bring-in: the bring-in goes to the LOWEST key when `lowest`,
 * else to the highest key.
 */
export function bringInKey(rule: BringInRule, card: Card): number {
  const rank = card >> 2;
  const suit = card & 3;
  switch (rule) {
    case 'stud':
    case 'highest':
      return rank * 4 + suit;
    case 'razz':
      return (rank === 12 ? -1 : rank) * 4 + suit + 4;
    case 'telesina':
      return rank * 4 + (TELESINA_SUIT[suit] ?? 0);
  }
}
