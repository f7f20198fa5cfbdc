/**
 * hands-<CODE>: whole hands a second, dealt, bet with random legal actions, potted and shown down, by
 * the engine the room runs (`Hand`, driven by the engine's own random-action driver, `playRandomHand`,
 * the one the tests use). Six players (fewer where the game seats fewer: 32-card draw seats five),
 * stacks of 50 to 400 chips, blinds 1/2 or ante 1 and bring-in 1, limits 2/4. hands-NT, six-player
 * no-limit hold'em, is measured against poker-ts, a hold'em-only table model, driven the same way:
 * the same stacks, the same random seed scheme for the actions (its deck it shuffles itself).
 *
 * Every (row, contender) pair runs in a fresh Node process: this file is also that child script.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Table } from 'poker-ts';
import {
  parseVariantCode,
  playRandomHand,
  randomBelow,
  sampleConfig,
  seededRandom,
  type HandConfig,
  type RandomSource,
  type Structure,
} from '@felt/engine';
import { childInput, childOutput, runChild } from './child.js';
import { medianRate } from './measure.js';
import type { BenchGroup, BenchRow } from './registry.js';

/** The rows: each room game in its natural structure, and the PHH-only variants. */
export const HAND_CODES = [
  'NT',
  'FT',
  'PO',
  'PO5',
  'FO/8',
  'PO5/8',
  'F7S',
  'F7S/8',
  'FR',
  'FSK',
  'F5D',
  'F2L3D',
  'FAM',
  'FTE',
  'F32D',
  'NS',
  'N2L1D',
  'FB',
] as const;

const PLAYERS = 6;
const MIN_STACK = 50;
const MAX_STACK = 400;
const SEED = 20_231;
const POKER_TS = 'poker-ts';

const STRUCTURES = {
  fixed: 'fixed-limit',
  spread: 'spread-limit',
  pot: 'pot-limit',
  'half-pot': 'half-pot-limit',
  'no-limit': 'no-limit',
} as const satisfies Record<string, Structure>;

interface HandsJob {
  readonly code: string;
  readonly contender: 'felt' | typeof POKER_TS;
  readonly samples: number;
  readonly batchMs: number;
}

/** `samples` hand configurations of a variant code: random stacks, the sample forced bets and limits. */
function configsOf(code: string, samples: number): HandConfig[] {
  const variant = parseVariantCode(code);
  if (variant === null) throw new Error(`unknown variant code ${code}`);
  const random = seededRandom(SEED);
  return Array.from({ length: samples }, () =>
    sampleConfig(variant.game, STRUCTURES[variant.structure], PLAYERS, random, {
      minStack: MIN_STACK,
      maxStack: MAX_STACK,
    }),
  );
}

/** Felt: hands per second of the engine's random-action driver. */
function feltRate(job: HandsJob): number {
  const configs = configsOf(job.code, job.samples);
  const random = seededRandom(SEED + 1);
  return medianRate(
    (from, to) => {
      for (let i = from; i < to; i++) playRandomHand(configs[i]!, random);
    },
    configs.length,
    job.batchMs,
  );
}

type PokerTsTable = InstanceType<typeof Table>;

/**
 * poker-ts loops forever handing out an odd chip when every winner of a pot has folded (its pots keep
 * players who folded after they were made). Its odd-chip seat search is made to throw instead, and
 * such a hand counts as played: only the odd chip is left undone.
 */
function guardPokerTs(): void {
  const array = createRequire(import.meta.url)('poker-ts/dist/util/array.js') as {
    nextOrWrap: (seats: readonly unknown[], seat: number) => number;
  };
  const next = array.nextOrWrap;
  array.nextOrWrap = (seats, seat) => {
    if (!seats.some((entry) => entry !== null)) throw new Error(POKER_TS_LOOP);
    return next(seats, seat);
  };
}
const POKER_TS_LOOP = 'poker-ts: odd chip for a folded winner';

/** A bet or raise size as the engine's driver picks it: the least, the most, or uniform between. */
function pickSize(min: number, max: number, random: RandomSource): number {
  const roll = randomBelow(random, 4);
  if (roll === 0 || max <= min) return min;
  if (roll === 1) return max;
  return min + randomBelow(random, max - min + 1);
}

/** One hand of poker-ts at a fresh table with the configuration's stacks and blinds 1/2. */
function playPokerTs(config: HandConfig, random: RandomSource): void {
  const table: PokerTsTable = new Table({ smallBlind: 1, bigBlind: 2 }, config.stacks.length);
  config.stacks.forEach((stack, seat) => {
    table.sitDown(seat, stack);
  });
  table.startHand();
  while (table.isHandInProgress()) {
    while (table.isBettingRoundInProgress()) {
      const legal = table.legalActions();
      const { actions } = legal;
      // poker-ts types its chip amounts with a path its declarations cannot resolve: they are numbers.
      const chipRange = legal.chipRange as { readonly min: number; readonly max: number } | undefined;
      const roll = randomBelow(random, 100);
      const raise = actions.includes('raise') ? 'raise' : actions.includes('bet') ? 'bet' : null;
      if (raise !== null && chipRange !== undefined && roll < 25)
        table.actionTaken(raise, pickSize(chipRange.min, chipRange.max, random));
      else if (actions.includes('call') && roll < 40) table.actionTaken('fold');
      else table.actionTaken(actions.includes('check') ? 'check' : 'call');
    }
    table.endBettingRound();
    if (table.areBettingRoundsCompleted()) {
      try {
        table.showdown();
      } catch (error) {
        if (!(error instanceof Error && error.message === POKER_TS_LOOP)) throw error;
        return;
      }
    }
  }
}

function pokerTsRate(job: HandsJob): number {
  guardPokerTs();
  const configs = configsOf(job.code, job.samples);
  const random = seededRandom(SEED + 1);
  return medianRate(
    (from, to) => {
      for (let i = from; i < to; i++) playPokerTs(configs[i]!, random);
    },
    configs.length,
    job.batchMs,
  );
}

/** hands-<CODE> rows, hands/s; hands-NT with poker-ts as its peer. */
export const handsGroup: BenchGroup = {
  name: 'hands',
  async *rows({ samples, batchMs }) {
    const script = new URL(import.meta.url);
    for (const code of HAND_CODES) {
      const felt = await runChild<number>(script, { code, contender: 'felt', samples, batchMs });
      const peers: Record<string, number> = {};
      if (code === 'NT') {
        const job: HandsJob = { code, contender: POKER_TS, samples, batchMs };
        peers[POKER_TS] = Math.round(await runChild<number>(script, job));
      }
      const row: BenchRow = { name: `hands-${code}`, unit: 'hands/s', felt: Math.round(felt), peers };
      yield row;
    }
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = childInput() as HandsJob;
  childOutput(job.contender === 'felt' ? feltRate(job) : pokerTsRate(job));
}
