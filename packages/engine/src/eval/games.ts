import type { DeckKind } from '../deck.js';
import type { RankingId } from './ranking.js';

/** The games whose showdowns Felt decides: the room's 13 and the PHH-only variants. */
export const GAME_IDS = [
  'holdem',
  'omaha',
  'omaha5',
  'omaha-hilo',
  'omaha5-hilo',
  'stud',
  'stud-hilo',
  'razz',
  'soko',
  'draw5',
  'triple-draw-27',
  'single-draw-27',
  'badugi',
  'shortdeck',
  'americana',
  'telesina',
  'draw32',
] as const;
export type GameId = (typeof GAME_IDS)[number];

/** How a player's hand is made at showdown. */
export interface ShowdownRules {
  readonly game: GameId;
  readonly deck: DeckKind;
  /** 'any': the best hand of all the player's and board cards; 'omaha': exactly two hole and three board cards. */
  readonly combine: 'any' | 'omaha';
  /** How many cards of his own a player has at showdown, and how many the board has: [fewest, most]. */
  readonly hole: readonly [number, number];
  readonly board: readonly [number, number];
  /** The ranking that wins the pot, or its high half in a hi/lo game. */
  readonly high: RankingId;
  /** The low half's ranking in a hi/lo game. */
  readonly low: RankingId | null;
}

const flop = (game: GameId, hole: number, high: RankingId, low: RankingId | null = null): ShowdownRules => ({
  game,
  deck: high === 'shortdeck' ? 'short36' : 'standard52',
  combine: hole === 2 ? 'any' : 'omaha',
  hole: [hole, hole],
  board: [3, 5],
  high,
  low,
});

const stud = (game: GameId, high: RankingId, low: RankingId | null = null): ShowdownRules => ({
  game,
  deck: 'standard52',
  combine: 'any',
  hole: [5, 7],
  board: [0, 1],
  high,
  low,
});

const ownCards = (game: GameId, deck: DeckKind, hole: number, high: RankingId): ShowdownRules => ({
  game,
  deck,
  combine: 'any',
  hole: [hole, hole],
  board: [0, 0],
  high,
  low: null,
});

export const SHOWDOWN_RULES: Readonly<Record<GameId, ShowdownRules>> = {
  holdem: flop('holdem', 2, 'high'),
  shortdeck: flop('shortdeck', 2, 'shortdeck'),
  omaha: flop('omaha', 4, 'high'),
  omaha5: flop('omaha5', 5, 'high'),
  'omaha-hilo': flop('omaha-hilo', 4, 'high', 'low8'),
  'omaha5-hilo': flop('omaha5-hilo', 5, 'high', 'low8'),
  stud: stud('stud', 'high'),
  'stud-hilo': stud('stud-hilo', 'high', 'low8'),
  razz: stud('razz', 'lowA5'),
  soko: ownCards('soko', 'standard52', 5, 'soko'),
  draw5: ownCards('draw5', 'standard52', 5, 'high'),
  'triple-draw-27': ownCards('triple-draw-27', 'standard52', 5, 'low27'),
  'single-draw-27': ownCards('single-draw-27', 'standard52', 5, 'low27'),
  badugi: ownCards('badugi', 'standard52', 4, 'badugi'),
  americana: ownCards('americana', 'piquet32', 5, 'americana'),
  telesina: { ...ownCards('telesina', 'piquet32', 5, 'telesina'), board: [0, 1] },
  draw32: ownCards('draw32', 'piquet32', 5, 'draw32'),
};

export function isGameId(id: string): id is GameId {
  return (GAME_IDS as readonly string[]).includes(id);
}
