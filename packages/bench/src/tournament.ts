/**
 * tournament: tournaments of bots played to their winner in this process, on real Table II tables, with
 * the money in the ledger of a fresh SQLite file (buy-ins to the prize pool, fees to the house, prizes
 * from the pool). Two runs, no flag or service needed:
 * - `tournament-*`: a multi-table no-limit hold'em tournament (1,000 entrants, nine to a table), 50 big
 *   blinds to start, levels of 10 hands each at most 1.5× the last;
 * - `tournament-mixed-*`: a six-level mixed game (limit hold'em, Omaha hi/lo, 7-card stud, stud hi/lo,
 *   one a level) at eight-seat tables, its last level kept until a winner.
 * The bots play the strategy of `felt bots` and think 1 to 3 times FELT_TOURNAMENT_THINK_MS before each
 * action. Rows: entrants, wall time (s), hands/s, players moved between tables, levels begun, action
 * latency p99 (sent → acknowledged, i.e. durable and announced), decisions the tables' action clocks
 * took from the bots (0 when every bot is told of its decisions), errors, and conserved (1 = the
 * tournament chips always equalled the chips sold, the prizes paid equal the pool, and the audit finds
 * every cent).
 *
 * Sized by the environment:
 *   FELT_TOURNAMENT_ENTRANTS (1000)       entrants of the hold'em tournament
 *   FELT_TOURNAMENT_MIXED_ENTRANTS (48)   entrants of the mixed tournament
 *   FELT_TOURNAMENT_THINK_MS (100)        the least think before an action, ms
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TournamentBots,
  TournamentDirector,
  countingClockDecisions,
  cryptoRandomSource,
  ledgerMoney,
  openMigratedSqliteStorage,
  realClock,
  type Level,
  type Storage,
  type TournamentDefinition,
} from '@felt/server';
import { envNumber } from './env.js';
import type { BenchGroup, BenchRow } from './registry.js';

const BUY_IN = 1000;
const FEE = 100;
const STARTING_CHIPS = 5000;
/** Thinks spread over [1, 3]× the least: `thinkTime` draws THINK × (1 ± SPREAD). */
const SPREAD = 0.5;

/** Big blinds from `big`, each level at most 1.5× the last (whole even chips). */
function rising(big: number, count: number): number[] {
  const bigs: number[] = [];
  for (let bb = big; bigs.length < count; bb = Math.max(bb + 2, Math.floor((bb * 1.5) / 2) * 2))
    bigs.push(bb);
  return bigs;
}

export function holdemTournament(entrants: number): TournamentDefinition {
  return {
    name: `${entrants}-entrant no-limit hold'em`,
    kind: 'sit-and-go',
    games: [{ game: 'holdem', structure: 'no-limit' }],
    levels: rising(STARTING_CHIPS / 50, 40).map((big) => ({ blinds: { small: big / 2, big } })),
    levelLength: { unit: 'hands', value: 10 },
    seats: 9,
    startingChips: STARTING_CHIPS,
    minEntrants: entrants,
    maxEntrants: entrants,
    money: 'play',
    buyIn: BUY_IN,
    fee: FEE,
  };
}

export function mixedTournament(entrants: number): TournamentDefinition {
  const level = (small: number): Level => ({
    blinds: { small: small / 2, big: small },
    limits: { small, big: 2 * small },
    bringIn: small / 4,
    ante: small / 8,
  });
  return {
    name: `${entrants}-entrant mixed game`,
    kind: 'sit-and-go',
    games: [
      { game: 'holdem', structure: 'fixed-limit' },
      { game: 'omaha-hilo', structure: 'fixed-limit' },
      { game: 'stud', structure: 'fixed-limit' },
      { game: 'stud-hilo', structure: 'fixed-limit' },
    ],
    rotateEvery: 'level',
    levels: [200, 400, 800, 1600, 3200, 6400].map(level),
    levelLength: { unit: 'hands', value: 10 },
    startingChips: STARTING_CHIPS,
    minEntrants: entrants,
    maxEntrants: entrants,
    money: 'play',
    buyIn: BUY_IN,
    fee: FEE,
  };
}

function p99(values: number[]): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;
}

/** Players with the buy-in and fee in their play-money balance; their accounts. */
async function entrants(storage: Storage, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const user = await storage.createUser({ name: `bot-${i}`, passwordHash: 'x', passwordSalt: 'x' });
    if (!user.ok) throw new Error(user.error.message);
    const topped = await storage.topUp(user.value.id, BUY_IN + FEE);
    if (!topped.ok) throw new Error(topped.error.message);
    ids.push(user.value.id);
  }
  return ids;
}

/** Plays `def` with bots to its winner; its rows, named `prefix`-…. */
export async function runTournament(
  prefix: string,
  def: TournamentDefinition,
  thinkMs: number,
): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'felt-tournament-bench-'));
  const storage = await openMigratedSqliteStorage({ file: join(dir, 'felt.db') });
  try {
    const accounts = await entrants(storage, def.maxEntrants);
    const clock = realClock();
    const latencies: number[] = [];
    const bots = new TournamentBots(clock, {
      thinkMs: thinkMs / (1 - SPREAD),
      roll: Math.random,
      acted: (ms) => latencies.push(ms),
    });
    let errors = 0;
    const counted = countingClockDecisions(bots, clock);
    const director = new TournamentDirector(prefix, def, {
      clock,
      random: cryptoRandomSource(),
      tableRandom: cryptoRandomSource,
      tableClocks: { betweenHandsMs: 1 },
      follower: counted.follower,
      money: ledgerMoney(storage, prefix, def.money),
      onError: () => errors++,
    });
    const start = performance.now();
    for (const account of accounts) {
      const registered = await director.register({ account, name: `Bot ${account}`, bot: true });
      if (!registered.ok) errors++;
    }
    await director.done;
    const seconds = (performance.now() - start) / 1000;
    bots.stop();
    const figures = director.figures();
    const paid = director.results().reduce((sum, r) => sum + r.prize, 0);
    const audit = await storage.audit();
    const conserved = figures.conserved && paid === def.maxEntrants * def.buyIn && audit.conserved;
    const row = (name: string, unit: string, felt: number): BenchRow => ({
      name: `${prefix}-${name}`,
      unit,
      felt,
      peers: {},
    });
    return [
      row('entrants', 'entrants', figures.entrants),
      row('wall-s', 's', seconds),
      row('hands', 'hands/s', figures.hands / seconds),
      row('moves', 'moves', figures.moves),
      row('levels', 'levels', figures.levels),
      row('latency-p99', 'ms', p99(latencies)),
      row('clock-taken', 'decisions', counted.taken()),
      row('errors', 'errors', errors + figures.errors),
      row('conserved', 'yes=1', conserved ? 1 : 0),
    ];
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const tournamentGroup: BenchGroup = {
  name: 'tournament',
  async *rows() {
    const thinkMs = envNumber('FELT_TOURNAMENT_THINK_MS', 100, 0);
    const holdem = Math.round(envNumber('FELT_TOURNAMENT_ENTRANTS', 1000, 2));
    const mixed = Math.round(envNumber('FELT_TOURNAMENT_MIXED_ENTRANTS', 48, 2));
    yield* await runTournament('tournament', holdemTournament(holdem), thinkMs);
    yield* await runTournament('tournament-mixed', mixedTournament(mixed), thinkMs);
  },
};
