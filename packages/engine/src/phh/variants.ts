import type { GameId } from '../eval/games.js';

/** Betting structures: F fixed limit, S spread limit, P pot limit, H half-pot limit, N no limit. */
export const PHH_STRUCTURES = { F: 'fixed', S: 'spread', P: 'pot', H: 'half-pot', N: 'no-limit' } as const;
export type PhhStructureLetter = keyof typeof PHH_STRUCTURES;
export type BettingStructure = (typeof PHH_STRUCTURES)[PhhStructureLetter];

/** Game codes after the structure letter: PHH's own (T, S, O/8, 7S, R, 2L1D, 2L3D, B …) and Felt's. */
export const PHH_GAME_CODES = {
  T: 'holdem',
  S: 'shortdeck',
  O: 'omaha',
  O5: 'omaha5',
  'O/8': 'omaha-hilo',
  'O5/8': 'omaha5-hilo',
  '7S': 'stud',
  '7S/8': 'stud-hilo',
  R: 'razz',
  SK: 'soko',
  '5D': 'draw5',
  '2L3D': 'triple-draw-27',
  '2L1D': 'single-draw-27',
  B: 'badugi',
  AM: 'americana',
  TE: 'telesina',
  '32D': 'draw32',
} as const satisfies Record<string, GameId>;
export type PhhGameCode = keyof typeof PHH_GAME_CODES;

/** The 11 variant codes of the PHH standard; every other valid code is Felt's own. */
export const PHH_STANDARD_VARIANTS = [
  'FT',
  'NT',
  'NS',
  'PO',
  'FO/8',
  'F7S',
  'F7S/8',
  'FR',
  'N2L1D',
  'F2L3D',
  'FB',
] as const;

/** The games dealt with a bring-in instead of blinds: the studs and their five-card cousins. */
const BRING_IN_GAMES: readonly GameId[] = ['stud', 'stud-hilo', 'razz', 'soko', 'americana', 'telesina'];

export interface PhhVariant {
  readonly code: string;
  readonly structure: BettingStructure;
  readonly game: GameId;
  /** One of the 11 codes of the PHH standard. */
  readonly standard: boolean;
  /** Forced bets are a bring-in (stud-like games) rather than blinds or straddles. */
  readonly bringIn: boolean;
}

const isStructureLetter = (letter: string): letter is PhhStructureLetter =>
  Object.hasOwn(PHH_STRUCTURES, letter);
const isGameCode = (code: string): code is PhhGameCode => Object.hasOwn(PHH_GAME_CODES, code);

/** Reads a variant code such as `NT`, `FO/8`, `HT` or `FSK`; null when it names no game. */
export function parseVariantCode(code: string): PhhVariant | null {
  const letter = code.charAt(0);
  const gameCode = code.slice(1);
  if (!isStructureLetter(letter) || !isGameCode(gameCode)) return null;
  const game = PHH_GAME_CODES[gameCode];
  return {
    code,
    structure: PHH_STRUCTURES[letter],
    game,
    standard: (PHH_STANDARD_VARIANTS as readonly string[]).includes(code),
    bringIn: BRING_IN_GAMES.includes(game),
  };
}

/** Every code Felt reads, structure letter by game code. */
export function allVariantCodes(): string[] {
  return Object.keys(PHH_STRUCTURES).flatMap((letter) =>
    Object.keys(PHH_GAME_CODES).map((game) => letter + game),
  );
}
