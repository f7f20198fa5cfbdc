import { formatCard, type Card } from '../cards.js';
import { seededRandom } from '../random.js';
import { enumerateSpot, runOutCount, sampleSpot, type Tally } from './enumerate.js';
import { outsOf } from './outs.js';
import { withDiscard, type OddsSpot } from './spot.js';

/**
 * The switch between exact and sampled: a spot with more run-outs than this is sampled. It counts
 * run-outs, never time, so one spot always gets one method. Two million covers every hold'em spot with
 * known hands (heads-up preflop has 1,712,304 boards, three-way 1,370,754) and Omaha from the flop on.
 */
export const EXACT_LIMIT = 2_000_000;
/** Run-outs sampled when the enumeration would pass EXACT_LIMIT and no `samples` is given. */
export const DEFAULT_SAMPLES = 200_000;
/** The seed used when none is given: the same spot always gives the same figures. */
export const DEFAULT_SEED = 1;

export interface OddsOptions {
  /** Sample this many run-outs instead of enumerating them. */
  readonly samples?: number;
  readonly seed?: number;
  /** Skip the outs (the discard list does not need them). */
  readonly outs?: boolean;
}

export interface PlayerOdds {
  readonly hand: string;
  /** Share of run-outs where this hand alone is best (hi/lo: alone best high). */
  readonly win: number;
  /** Share of run-outs where it shares the best (hi/lo: high) hand. */
  readonly tie: number;
  /** Its average share of the pot, ties split. */
  readonly equity: number;
  /** Hi/lo only: average share of the high half, of the low half, and share of run-outs it scoops. */
  readonly high: number | null;
  readonly low: number | null;
  readonly scoop: number | null;
  /** Sampled only: the standard error of `equity`. */
  readonly stdErr: number | null;
  readonly outs: readonly Card[];
}

export interface OddsResult {
  readonly method: 'exact' | 'sampled';
  /** Run-outs enumerated, or samples drawn. */
  readonly boards: number;
  /** The seed of a sampled result; null when exact. */
  readonly seed: number | null;
  readonly players: readonly PlayerOdds[];
}

/** Win, tie and equity of every hand in the spot: exact, or sampled past EXACT_LIMIT or when asked. */
export function computeOdds(spot: OddsSpot, options: OddsOptions = {}): OddsResult {
  const sampled = options.samples !== undefined || runOutCount(spot) > EXACT_LIMIT;
  const seed = options.seed ?? DEFAULT_SEED;
  const tally = sampled
    ? sampleSpot(spot, options.samples ?? DEFAULT_SAMPLES, seededRandom(seed))
    : enumerateSpot(spot);
  const outs = options.outs === false ? spot.hands.map((): Card[] => []) : outsOf(spot);
  return {
    method: sampled ? 'sampled' : 'exact',
    boards: tally.runs,
    seed: sampled ? seed : null,
    players: spot.hands.map((hand, i) => playerOdds(spot, tally, i, hand.text, sampled, outs[i] ?? [])),
  };
}

function playerOdds(
  spot: OddsSpot,
  tally: Tally,
  i: number,
  hand: string,
  sampled: boolean,
  outs: readonly Card[],
): PlayerOdds {
  const runs = tally.runs;
  const hiLo = spot.low !== null;
  const equity = tally.equity[i]! / runs;
  const variance = Math.max(0, tally.equitySquares[i]! / runs - equity * equity);
  return {
    hand,
    win: tally.wins[i]! / runs,
    tie: tally.ties[i]! / runs,
    equity,
    high: hiLo ? tally.high[i]! / runs : null,
    low: hiLo ? tally.low[i]! / runs : null,
    scoop: hiLo ? tally.scoop[i]! / runs : null,
    stdErr: sampled ? Math.sqrt(variance / runs) : null,
    outs,
  };
}

export interface DiscardOdds {
  readonly discard: readonly Card[];
  readonly method: 'exact' | 'sampled';
  readonly boards: number;
  /** The first player's figures after this discard and draw, the others standing pat. */
  readonly odds: PlayerOdds;
}

/**
 * Draw games: the first player's every discard (standing pat included), each with his equity after
 * the draw against the other hands as they stand; best first (equal equity: fewer cards, then card order).
 */
export function discardChoices(spot: OddsSpot, options: OddsOptions = {}): DiscardOdds[] {
  const first = spot.hands[0];
  if (!first) return [];
  const cards = first.known;
  const choices: DiscardOdds[] = [];
  for (let mask = 0; mask < 1 << cards.length; mask++) {
    const discard = cards.filter((_, bit) => (mask >> bit) & 1);
    const result = computeOdds(withDiscard(spot, discard), { ...options, outs: false });
    choices.push({ discard, method: result.method, boards: result.boards, odds: result.players[0]! });
  }
  const order = (choice: DiscardOdds): string => choice.discard.map((card) => formatCard(card)).join('');
  return choices.sort(
    (a, b) =>
      b.odds.equity - a.odds.equity ||
      a.discard.length - b.discard.length ||
      order(a).localeCompare(order(b)),
  );
}

/**
 * Rounds fractions to `digits` decimals so that those meant to add up to one still do: the largest
 * remainders get the last units.
 */
export function roundToSum(values: readonly number[], digits = 4): number[] {
  const scale = 10 ** digits;
  const scaled = values.map((value) => value * scale);
  const floors = scaled.map((value) => Math.floor(value + 1e-9));
  let left = Math.round(scaled.reduce((sum, value) => sum + value, 0)) - floors.reduce((a, b) => a + b, 0);
  const byRemainder = scaled
    .map((value, index) => ({ index, remainder: value - floors[index]! }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    floors[index]!++;
    left--;
  }
  return floors.map((units) => units / scale);
}

export const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The command line's JSON: fractions to four decimals, equity and high shares adding up to one. */
export function oddsJson(result: OddsResult, discards?: readonly DiscardOdds[]): object {
  const equity = roundToSum(result.players.map((player) => player.equity));
  const high = roundToSum(result.players.map((player) => player.high ?? 0));
  const maybe = (value: number | null): number | null => (value === null ? null : round(value));
  return {
    method: result.method,
    boards: result.boards,
    ...(result.seed === null ? {} : { seed: result.seed }),
    players: result.players.map((player, i) => ({
      hand: player.hand,
      win: round(player.win),
      tie: round(player.tie),
      equity: equity[i]!,
      high: player.high === null ? null : high[i]!,
      low: maybe(player.low),
      scoop: maybe(player.scoop),
      outs: player.outs.map((card) => formatCard(card)),
      ...(player.stdErr === null ? {} : { stdErr: round(player.stdErr, 6) }),
    })),
    ...(discards
      ? {
          discards: discards.map((choice) => ({
            discard: choice.discard.map((card) => formatCard(card)).join(''),
            method: choice.method,
            boards: choice.boards,
            win: round(choice.odds.win),
            tie: round(choice.odds.tie),
            equity: round(choice.odds.equity),
          })),
        }
      : {}),
  };
}
