/**
 * A tournament's definition as data, and its validator: the games dealt (one, or a rotation of
 * (game, structure) pairs for mixed games), the levels (blinds, antes, bring-in, limits), their length
 * (minutes, or hands for tests), breaks, seats per table, entrants, money, payouts and the rebuy,
 * add-on and re-entry options. Everything here is pure: amounts in chips (stakes) or cents (money).
 */
import {
  ROOM_VARIANT_IDS,
  STRUCTURES,
  VARIANTS,
  fail,
  ok,
  type Result,
  type Structure,
  type VariantId,
} from '@felt/engine';

/** One game of the tournament: what is dealt and how it is bet. */
export interface GameSpec {
  readonly game: VariantId;
  readonly structure: Structure;
}

/**
 * The stakes of one level, in tournament chips. A level gives what its games need: blinds for button
 * games, bring-in (and usually an ante) for stud games, small and big bets for fixed limit (spread
 * limit: `spreadLimits`, else the small and big bets). A mixed-game level gives the stakes of every
 * game it may deal.
 */
export interface Level {
  /** Button games: the small and big blind. */
  readonly blinds?: { readonly small: number; readonly big: number };
  /** Ante: posted by every player, or by the big blind alone for the whole table (`bigBlindAnte`). */
  readonly ante?: number;
  /** Button games: the big blind posts the ante once for the whole table (the big-blind ante). Stud games: everyone antes. */
  readonly bigBlindAnte?: boolean;
  /** Stud games: the bring-in. */
  readonly bringIn?: number;
  /** Fixed limit (and spread-limit default): the small and big bet. */
  readonly limits?: { readonly small: number; readonly big: number };
  /** Spread limit: the largest bet or raise of each betting round, in order. */
  readonly spreadLimits?: readonly number[];
}

/** How long a level lasts: minutes of play, or hands dealt (for tests and benches). */
export type LevelLength =
  { readonly unit: 'minutes'; readonly value: number } | { readonly unit: 'hands'; readonly value: number };

/** A break of `minutes` after every `everyLevels` levels. */
export interface Breaks {
  readonly everyLevels: number;
  readonly minutes: number;
}

/** When a mixed game moves to its next game: at each new level, or at each table after an orbit (./rotation.ts). */
export type RotateEvery = 'level' | 'orbit';

/** A time window of levels (0-based indexes, both ends included). */
export interface LevelWindow {
  readonly fromLevel: number;
  readonly untilLevel: number;
}

/** A buy of chips during the tournament: its price (cents to the pool), fee (cents to the house) and chips. */
export interface ChipPurchase {
  readonly cost: number;
  readonly fee: number;
  readonly chips: number;
  /** How many each player may buy. */
  readonly maxPerPlayer: number;
  /** The levels during which it is offered. */
  readonly window: LevelWindow;
}

/** A rebuy: offered only while the player's stack is at most `maxStack` (usually the starting stack). */
export interface RebuyOption extends ChipPurchase {
  readonly maxStack: number;
}

/** Re-entry: a player who is out enters again with a new starting stack, at the buy-in and fee. */
export interface ReEntryOption {
  readonly maxPerPlayer: number;
  readonly window: LevelWindow;
}

/** The tournament's own payout table for fields from `fromEntrants` up: shares of the pool in basis points, first place first. */
export interface PayoutRange {
  readonly fromEntrants: number;
  readonly shares: readonly number[];
}

export interface TournamentDefinition {
  readonly name: string;
  /** Sit & go: starts when `maxEntrants` have registered. Scheduled: starts at its time with at least `minEntrants`. */
  readonly kind: 'sit-and-go' | 'scheduled';
  /** Scheduled tournaments: the start time (ms since the epoch, on the room's clock). */
  readonly startsAt?: number;
  /** The games dealt, in rotation order; one entry for a single game. */
  readonly games: readonly GameSpec[];
  /** Mixed games only: when the rotation moves on. Default 'level'. */
  readonly rotateEvery?: RotateEvery;
  readonly levels: readonly Level[];
  readonly levelLength: LevelLength;
  readonly breaks?: Breaks;
  /** Seats per table; default and maximum: the smallest seat limit of the games. */
  readonly seats?: number;
  readonly startingChips: number;
  readonly minEntrants: number;
  readonly maxEntrants: number;
  /** Late registration (and re-entry) is open until the end of this level (0-based); absent = closed at the start. */
  readonly lateRegistrationLevels?: number;
  readonly money: 'play' | 'real';
  /** The buy-in, to the prize pool, in cents; 0 = freeroll. */
  readonly buyIn: number;
  /** The fee, to the house, in cents. */
  readonly fee: number;
  /** The tournament's own payout table; absent = the standard table (./payouts.ts). */
  readonly payouts?: readonly PayoutRange[];
  readonly rebuy?: RebuyOption;
  readonly addOn?: ChipPurchase;
  readonly reEntry?: ReEntryOption;
}

export type DefinitionErrorCode =
  | 'BAD_NAME'
  | 'BAD_GAMES'
  | 'BAD_LEVELS'
  | 'BAD_LEVEL_LENGTH'
  | 'BAD_BREAKS'
  | 'BAD_SEATS'
  | 'BAD_CHIPS'
  | 'BAD_ENTRANTS'
  | 'BAD_MONEY'
  | 'BAD_PAYOUTS'
  | 'BAD_OPTION';

/** Definitions come from table files: enumerated fields are checked at run time too. */
const oneOf = (value: string, allowed: readonly string[]): boolean => allowed.includes(value);

const isCount = (n: unknown, min = 0): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && n >= min;

/** The largest table the games allow: the smallest seat limit in the rotation (RULES.md §13). */
export function gameSeatLimit(games: readonly GameSpec[]): number {
  return Math.min(...games.map((g) => VARIANTS[g.game].seats));
}

/** Seats per table: the definition's, else the smallest game's limit. */
export function seatsPerTable(def: Pick<TournamentDefinition, 'games' | 'seats'>): number {
  return def.seats ?? gameSeatLimit(def.games);
}

/** Whether a game is dealt with a button and blinds (false: stud games, antes and the bring-in). */
export function hasButton(game: VariantId): boolean {
  return VARIANTS[game].forced === 'blinds';
}

/** The stakes of level `index`; after the last level, the last one goes on. */
export function levelAt(def: Pick<TournamentDefinition, 'levels'>, index: number): Level {
  return def.levels[Math.min(index, def.levels.length - 1)]!;
}

/** The games a level may deal: its rotation slot when the game changes every level, else every game. */
export function gamesOfLevel(
  def: Pick<TournamentDefinition, 'games' | 'rotateEvery'>,
  index: number,
): GameSpec[] {
  if (def.games.length === 1 || (def.rotateEvery ?? 'level') === 'orbit') return [...def.games];
  return [def.games[index % def.games.length]!];
}

function checkPair(pair: { readonly small: number; readonly big: number } | undefined): boolean {
  return pair !== undefined && isCount(pair.small, 1) && isCount(pair.big, 1) && pair.small <= pair.big;
}

/** Why level `level` cannot deal `spec`, or null when it can. */
function levelProblem(level: Level, spec: GameSpec): string | null {
  const button = hasButton(spec.game);
  if (level.ante !== undefined && !isCount(level.ante)) return 'the ante must be a whole number of chips';
  if (button) {
    if (!checkPair(level.blinds)) return 'a button game needs blinds, 1 ≤ small ≤ big';
  } else if (!isCount(level.bringIn, 1)) {
    return 'a stud game needs a bring-in of at least 1';
  }
  if (spec.structure === 'fixed-limit' || spec.structure === 'spread-limit') {
    const spread = level.spreadLimits;
    const spreadOk =
      spec.structure === 'spread-limit' &&
      spread !== undefined &&
      spread.length > 0 &&
      spread.every((n) => isCount(n, 1));
    if (!spreadOk && !checkPair(level.limits))
      return `${spec.structure} needs small and big bets, 1 ≤ small ≤ big`;
    if (
      !button &&
      level.limits !== undefined &&
      level.bringIn !== undefined &&
      level.bringIn > level.limits.small
    )
      return 'the bring-in may not exceed the small bet';
  }
  return null;
}

/**
 * Checks a definition: every field in range, every level able to deal the games it may deal, the
 * seats within every game's limit, the options' windows inside the levels. Returns the definition
 * itself when it is valid.
 */
export function validateDefinition(
  def: TournamentDefinition,
): Result<TournamentDefinition, DefinitionErrorCode> {
  if (typeof def.name !== 'string' || def.name.trim() === '')
    return fail('BAD_NAME', 'a tournament needs a name');
  if (def.games.length === 0) return fail('BAD_GAMES', 'a tournament deals at least one game');
  for (const spec of def.games) {
    if (!ROOM_VARIANT_IDS.includes(spec.game)) return fail('BAD_GAMES', `unknown game ${spec.game}`);
    if (!STRUCTURES.includes(spec.structure)) return fail('BAD_GAMES', `unknown structure ${spec.structure}`);
  }
  if (def.rotateEvery !== undefined && !oneOf(def.rotateEvery, ['level', 'orbit']))
    return fail('BAD_GAMES', 'the rotation changes every level or every orbit');
  if (def.levels.length === 0) return fail('BAD_LEVELS', 'a tournament has at least one level');
  for (const [index, level] of def.levels.entries()) {
    for (const spec of gamesOfLevel(def, index)) {
      const problem = levelProblem(level, spec);
      if (problem !== null) return fail('BAD_LEVELS', `level ${index + 1} (${spec.game}): ${problem}`);
    }
  }
  const { levelLength } = def;
  if (!oneOf(levelLength.unit, ['minutes', 'hands']) || !isCount(levelLength.value, 1))
    return fail('BAD_LEVEL_LENGTH', 'a level lasts at least 1 minute or 1 hand');
  if (def.breaks !== undefined && (!isCount(def.breaks.everyLevels, 1) || !isCount(def.breaks.minutes, 1)))
    return fail('BAD_BREAKS', 'breaks come every 1 or more levels and last at least 1 minute');
  const limit = gameSeatLimit(def.games);
  if (def.seats !== undefined && (!isCount(def.seats, 2) || def.seats > limit))
    return fail('BAD_SEATS', `seats per table: 2 to ${limit} (the smallest game's limit)`);
  if (!isCount(def.startingChips, 1)) return fail('BAD_CHIPS', 'the starting stack is at least 1 chip');
  if (!isCount(def.minEntrants, 2) || !isCount(def.maxEntrants, 2) || def.minEntrants > def.maxEntrants)
    return fail('BAD_ENTRANTS', 'entrants: 2 ≤ minimum ≤ maximum');
  if (def.kind === 'scheduled' ? !isCount(def.startsAt) : def.startsAt !== undefined)
    return fail('BAD_ENTRANTS', 'a scheduled tournament has a start time, a sit & go none');
  if (!oneOf(def.kind, ['sit-and-go', 'scheduled']))
    return fail('BAD_ENTRANTS', 'kind: sit-and-go or scheduled');
  if (def.kind === 'sit-and-go' && def.maxEntrants > seatsPerTable(def))
    return fail(
      'BAD_ENTRANTS',
      'a sit & go starts when its one table is full: at most seats-per-table entrants',
    );
  if (
    def.lateRegistrationLevels !== undefined &&
    (!isCount(def.lateRegistrationLevels) || def.kind === 'sit-and-go')
  )
    return fail('BAD_ENTRANTS', 'late registration: a level index, scheduled tournaments only');
  if (!oneOf(def.money, ['play', 'real']) || !isCount(def.buyIn) || !isCount(def.fee))
    return fail('BAD_MONEY', 'money: play or real, buy-in and fee whole cents ≥ 0');
  const payoutProblem = def.payouts === undefined ? null : payoutRangesProblem(def.payouts, def.minEntrants);
  if (payoutProblem !== null) return fail('BAD_PAYOUTS', payoutProblem);
  const optionProblem = optionsProblem(def);
  if (optionProblem !== null) return fail('BAD_OPTION', optionProblem);
  return ok(def);
}

function payoutRangesProblem(ranges: readonly PayoutRange[], minEntrants: number): string | null {
  if (ranges.length === 0 || ranges[0]!.fromEntrants > minEntrants)
    return 'the payout ranges must cover the minimum number of entrants';
  for (const [i, range] of ranges.entries()) {
    if (i > 0 && range.fromEntrants <= ranges[i - 1]!.fromEntrants)
      return 'payout ranges in increasing entrants';
    const { shares } = range;
    if (shares.length === 0 || shares.length > range.fromEntrants)
      return 'a range pays 1 to fromEntrants places';
    if (!shares.every((s) => isCount(s, 1))) return 'shares are whole basis points ≥ 1';
    if (shares.some((s, k) => k > 0 && s > shares[k - 1]!))
      return 'a lower place never pays more than a higher one';
    if (shares.reduce((a, b) => a + b, 0) !== 10_000)
      return 'the shares of a range add up to 10,000 basis points';
  }
  return null;
}

function windowProblem(window: LevelWindow, levels: number): boolean {
  return (
    !isCount(window.fromLevel) ||
    !isCount(window.untilLevel) ||
    window.fromLevel > window.untilLevel ||
    window.untilLevel >= levels
  );
}

function optionsProblem(def: TournamentDefinition): string | null {
  const levels = def.levels.length;
  for (const [name, option] of [
    ['rebuy', def.rebuy],
    ['add-on', def.addOn],
  ] as const) {
    if (option === undefined) continue;
    if (
      !isCount(option.cost) ||
      !isCount(option.fee) ||
      !isCount(option.chips, 1) ||
      !isCount(option.maxPerPlayer, 1)
    )
      return `${name}: cost and fee ≥ 0 cents, chips ≥ 1, at least 1 per player`;
    if (windowProblem(option.window, levels)) return `${name}: its window must lie within the levels`;
  }
  if (def.rebuy !== undefined && !isCount(def.rebuy.maxStack))
    return 'rebuy: the largest stack allowed is ≥ 0 chips';
  if (def.reEntry !== undefined) {
    if (!isCount(def.reEntry.maxPerPlayer, 1)) return 're-entry: at least 1 per player';
    if (windowProblem(def.reEntry.window, levels)) return 're-entry: its window must lie within the levels';
    if (def.kind === 'sit-and-go')
      return 're-entry: scheduled tournaments only (a sit & go has no free seat)';
  }
  return null;
}
