/** Tournaments of in-process bots on real Table II tables, for the controller's tests and the bench. */
import { seededRandom } from '@felt/engine';
import { expect } from 'vitest';
import { realClock, type ManualClock } from '../src/table/index.js';
import type { TableClock } from '../src/table/types.js';
import { TournamentBots } from '../src/tournament/bots.js';
import {
  TournamentDirector,
  type DirectorDeps,
  type Observation,
  type TournamentMoney,
} from '../src/tournament/director.js';
import type { Level, TournamentDefinition } from '../src/tournament/structure.js';

/** Blinds from `big` up by at most 1.5× a level (rounded to whole chips), `count` levels. */
export function risingLevels(big: number, count: number): Level[] {
  const levels: Level[] = [];
  let bb = big;
  for (let i = 0; i < count; i++) {
    levels.push({ blinds: { small: Math.floor(bb / 2), big: bb } });
    bb = Math.max(bb + 2, Math.floor((bb * 1.5) / 2) * 2);
  }
  return levels;
}

export function holdemDefinition(overrides: Partial<TournamentDefinition> = {}): TournamentDefinition {
  return {
    name: 'Test tournament',
    kind: 'sit-and-go',
    games: [{ game: 'holdem', structure: 'no-limit' }],
    levels: risingLevels(20, 30),
    levelLength: { unit: 'hands', value: 3 },
    startingChips: 1000,
    minEntrants: 2,
    maxEntrants: 6,
    money: 'play',
    buyIn: 1000,
    fee: 100,
    ...overrides,
  };
}

export interface BotTournament {
  readonly director: TournamentDirector;
  readonly bots: TournamentBots;
  readonly observations: Observation[];
  readonly errors: unknown[];
}

/**
 * The real clock, which `skip` moves on: a scheduled tournament reaches its start when the test says
 * (then `director.tick()`), however long its registrations took on a busy machine.
 */
export function skippingClock(): { clock: TableClock; skip: (ms: number) => void } {
  const real = realClock();
  let skipped = 0;
  return {
    clock: { now: () => real.now() + skipped, timer: (fire) => real.timer(fire) },
    skip: (ms) => {
      skipped += ms;
    },
  };
}

/**
 * Moves a manual clock on `stepMs` at a time, every promise settled between steps (the tables, bots and
 * controller wait on nothing else), until `done`; throws once `limitMs` of its time has gone by.
 */
export async function driveUntil(
  clock: ManualClock,
  done: () => boolean,
  { stepMs = 10, limitMs = 3_600_000 } = {},
): Promise<void> {
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  await settled();
  for (let ran = 0; !done(); ran += stepMs) {
    if (ran > limitMs) throw new Error(`not done after ${String(limitMs)} ms of the manual clock`);
    clock.advance(stepMs);
    await settled();
  }
}

interface BotOptions {
  seed?: number;
  thinkMs?: number;
  money?: TournamentMoney;
  save?: DirectorDeps['save'];
  /** Default: the real clock. */
  clock?: TableClock;
}

/** A director's dependencies with bots thinking `thinkMs`, dealing with `seed`, collecting what it observes. */
export function botDeps(options: BotOptions = {}): {
  deps: DirectorDeps;
  bots: TournamentBots;
  observations: Observation[];
  errors: unknown[];
} {
  const clock = options.clock ?? realClock();
  const random = seededRandom(options.seed ?? 1);
  let tableSeed = (options.seed ?? 1) * 1000;
  const roll = seededRandom((options.seed ?? 1) + 7);
  const bots = new TournamentBots(clock, {
    thinkMs: options.thinkMs ?? 1,
    roll: () => roll.nextUint32() / 2 ** 32,
  });
  const observations: Observation[] = [];
  const errors: unknown[] = [];
  const deps: DirectorDeps = {
    clock,
    random,
    tableRandom: () => seededRandom(++tableSeed),
    tableClocks: { betweenHandsMs: 1, actionMs: 10_000 },
    follower: bots,
    ...(options.money ? { money: options.money } : {}),
    ...(options.save ? { save: options.save } : {}),
    observe: (o) => observations.push(o),
    onError: (e) => errors.push(e),
  };
  return { deps, bots, observations, errors };
}

/** A director whose players are bots thinking `thinkMs`, dealing with `seed`. */
export function botTournament(def: TournamentDefinition, options: BotOptions = {}): BotTournament {
  const { deps, bots, observations, errors } = botDeps(options);
  return { director: new TournamentDirector('tt', def, deps), bots, observations, errors };
}

export const botRef = (n: number) => ({ account: n, name: `Bot ${n}`, bot: true });

/** The places the results take: a rank shared by k players takes k places from its own. */
export const placesTaken = (
  results: readonly { readonly place: number; readonly tied: number }[],
): number[] => {
  const byPlace = new Map<number, { readonly place: number; readonly tied: number }[]>();
  for (const r of results) byPlace.set(r.place, [...(byPlace.get(r.place) ?? []), r]);
  const taken: number[] = [];
  for (const [place, group] of byPlace) {
    for (const r of group) expect(r.tied).toBe(group.length);
    for (let k = 0; k < group.length; k++) taken.push(place + k);
  }
  return taken.sort((a, b) => a - b);
};
