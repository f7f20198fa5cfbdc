/**
 * A table's configuration resolved into what the table and the engine need: seat count, buy-in range,
 * forced bets and the engine's betting fields (RULES.md §1, §2, §6, §13).
 */
import {
  houseRake,
  isBigBet,
  ROOM_VARIANT_IDS,
  stakesLabel,
  smallBlindFor,
  variantOf,
  type HandConfig,
  type Variant,
} from '@felt/engine';
import {
  DEFAULT_CLOCKS,
  type ClockConfig,
  type Currency,
  type TableConfig,
  type TableCurrency,
} from './types.js';

export interface ResolvedTable {
  readonly config: TableConfig;
  readonly variant: Variant;
  readonly seatCount: number;
  readonly minBuyIn: number;
  readonly maxBuyIn: number | null;
  readonly clocks: ClockConfig;
  readonly allInsPerDay: number;
  /** Run it twice is offered (a flop game whose table file asks for it; cash tables only, ./run-twice.ts). */
  readonly runItTwice: boolean;
  /** Button games: the blinds. */
  readonly smallBlind: number;
  readonly bigBlind: number;
  /** Stud games: ante and bring-in. */
  readonly ante: number;
  readonly bringIn: number;
  readonly limitGame: boolean;
  /**
   * The stakes a table is named and shown by: a big-bet table's blinds (the bring-in and the minimum
   * bet in stud games, which have no blinds), a limit table's small and big bet ("0.50/1", "1/2").
   */
  readonly stakesText: string;
  /** Engine fields shared by every hand at the table (stacks, blinds and antes are added per hand). */
  readonly engine: Omit<HandConfig, 'stacks'>;
}

/** Fixed-limit buy-in minimums of RULES.md §1 (002), by small bet in cents. */
const FIXED_LIMIT_MINIMUMS: ReadonlyMap<number, number> = new Map([
  [25, 300],
  [100, 1000],
  [200, 2000],
  [300, 3000],
  [500, 5000],
]);

/** 7-card stud antes and bring-ins of RULES.md §6 (000), by small bet in cents: [ante, bring-in]. */
const STUD_FORCED_BETS: ReadonlyMap<number, readonly [number, number]> = new Map([
  [100, [25, 50]],
  [200, [50, 75]],
  [300, [75, 125]],
  [400, [100, 200]],
  [500, [100, 200]],
  [600, [100, 200]],
  [800, [200, 300]],
  [1000, [200, 400]],
  [1500, [300, 600]],
  [2000, [500, 1000]],
  [3000, [500, 1500]],
  [5000, [1000, 2000]],
  [7500, [2500, 5000]],
  [10000, [2500, 5000]],
]);

/**
 * Default ante and bring-in of a stud game at small bet `small`: 7-card stud (and hi/lo) by the
 * table of RULES.md §6, else ante ≈ a fifth of the small bet and a bring-in of half the small bet;
 * Sökö, Americana and Telesina: bring-in = 2 × ante (RULES.md §7, §9).
 */
export function studForcedBets(game: string, small: number): { ante: number; bringIn: number } {
  const ante = Math.max(1, Math.floor(small / 5));
  if (game === 'stud' || game === 'stud-hilo') {
    const listed = STUD_FORCED_BETS.get(small);
    if (listed) return { ante: listed[0], bringIn: listed[1] };
    return { ante, bringIn: Math.max(1, Math.floor(small / 2)) };
  }
  return { ante, bringIn: 2 * ante };
}

/** Default buy-in range: fixed/spread limit RULES.md §1's minimums (else 10 small bets), no maximum; PL/½PL/NL 20 to 100 big blinds. */
export function defaultBuyIn(config: TableConfig): { min: number; max: number | null } {
  const small = config.stakes.small;
  if (config.structure === 'fixed-limit' || config.structure === 'spread-limit') {
    return { min: FIXED_LIMIT_MINIMUMS.get(small) ?? 10 * small, max: null };
  }
  return { min: 20 * small, max: 100 * small };
}

/**
 * "0.50/1" for 50/100, "1/2" for 100/200: cents or play chips shown as units, two decimals unless whole;
 * tournament chips are whole units already ("50/100").
 */
export function stakesText(small: number, big: number, currency: TableCurrency): string {
  return stakesLabel([small, big], currency === 'chips' ? 0 : 2);
}

/** The money of a table that takes it from the ledger: a cash table's (a tournament's chips have none). */
export function ledgerCurrency(currency: TableCurrency): Currency {
  if (currency === 'chips') throw new Error('tournament chips never enter the ledger');
  return currency;
}

const positive = (x: number): boolean => Number.isSafeInteger(x) && x > 0;

/** Resolves and checks a table configuration; throws on a configuration no table could run. */
export function resolveTable(config: TableConfig): ResolvedTable {
  if (!ROOM_VARIANT_IDS.includes(config.game))
    throw new Error(`table ${config.id}: ${config.game} is not a room game`);
  const variant = variantOf(config.game);
  const seatCount = config.seats ?? variant.seats;
  if (!Number.isInteger(seatCount) || seatCount < 2 || seatCount > variant.seats)
    throw new Error(`table ${config.id}: ${variant.name} seats 2 to ${variant.seats}`);
  const { small, big } = config.stakes;
  if (!positive(small) || !positive(big) || big < small) throw new Error(`table ${config.id}: bad stakes`);
  const limitGame = config.structure === 'fixed-limit' || config.structure === 'spread-limit';
  const defaults = defaultBuyIn(config);
  const minBuyIn = config.minBuyIn ?? defaults.min;
  const maxBuyIn = limitGame ? null : config.maxBuyIn === undefined ? defaults.max : config.maxBuyIn;
  if (!positive(minBuyIn) || (maxBuyIn !== null && maxBuyIn < minBuyIn))
    throw new Error(`table ${config.id}: bad buy-in range`);
  const stud = variant.forced === 'bring-in';
  const runItTwice = config.runItTwice ?? false;
  if (typeof runItTwice !== 'boolean') throw new Error(`table ${config.id}: runItTwice is true or false`);
  if (runItTwice && (stud || !variant.streets.some((street) => street.board > 0)))
    throw new Error(`table ${config.id}: ${variant.name} has no board to run twice`);
  const forced = studForcedBets(config.game, small);
  const ante = stud ? (config.stakes.ante ?? forced.ante) : 0;
  const bringIn = stud ? (config.stakes.bringIn ?? forced.bringIn) : 0;
  const engine: Omit<HandConfig, 'stacks'> = {
    variant: config.game,
    structure: config.structure,
    smallBet: small,
    bigBet: big,
    minBet: small,
    ...(config.structure === 'spread-limit' && config.stakes.spreadLimits
      ? { spreadLimits: config.stakes.spreadLimits }
      : {}),
    ...(stud ? { bringIn } : {}),
    // Cash tables do not cap fixed-limit betting heads-up; tournament tables keep the cap (RULES.md §2, 004).
    capHeadsUp: config.currency === 'chips',
    // The table shows each hand down itself: shown, or mucked when beaten and its player mucks losing hands.
    autoShowdown: false,
    ...(config.currency === 'real' ? { rake: houseRake } : {}),
  };
  const smallBlind = stud ? 0 : smallBlindFor(small);
  const bigBlind = stud ? 0 : small;
  return {
    config,
    variant,
    seatCount,
    minBuyIn,
    maxBuyIn,
    clocks: { ...DEFAULT_CLOCKS, ...config.clocks },
    allInsPerDay: config.allInsPerDay ?? 2,
    runItTwice,
    smallBlind,
    bigBlind,
    ante,
    bringIn,
    limitGame,
    stakesText: !isBigBet(config.structure)
      ? stakesText(small, big, config.currency)
      : stud
        ? stakesText(bringIn, small, config.currency)
        : stakesText(smallBlind, bigBlind, config.currency),
    engine,
  };
}
