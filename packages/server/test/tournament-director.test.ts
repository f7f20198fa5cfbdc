/**
 * The tournament controller with bots on real Table II tables, in process: a sit & go and a
 * multi-table tournament played to their winner, by the rules of docs/tournaments.md.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/table/index.js';
import { countingClockDecisions } from '../src/tournament/bots.js';
import { TournamentDirector } from '../src/tournament/director.js';
import { isBalanced, playersAt } from '../src/tournament/seating.js';
import type { TournamentDefinition } from '../src/tournament/structure.js';
import type { HandRecap } from '../src/table/types.js';
import {
  botDeps,
  botRef,
  botTournament,
  driveUntil,
  holdemDefinition,
  placesTaken,
} from './tournament-helpers.js';

const register = async (t: ReturnType<typeof botTournament>, n: number, from = 1) => {
  for (let i = from; i < from + n; i++) expect((await t.director.register(botRef(i))).ok).toBe(true);
};

describe('tournament controller', () => {
  it('a sit & go starts when its seats are full and is played to one winner; every place taken once, the pool paid', async () => {
    const t = botTournament(holdemDefinition({ maxEntrants: 6 }));
    await register(t, 5);
    expect(t.director.phase).toBe('registering');
    await register(t, 1, 6);
    expect(t.director.phase).toBe('running');
    await t.director.done;
    expect(t.errors).toEqual([]);
    const results = t.director.results();
    expect(placesTaken(results)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.reduce((a, r) => a + r.prize, 0)).toBe(6 * 1000);
    expect(t.director.figures().conserved).toBe(true);
  }, 60_000);

  it("tournament chips are whole units, not money: a real-money tournament's tables deal chips, name their stakes in chips, take no rake, and a split pot's odd chip leaves whole stacks", async () => {
    // Omaha hi/lo splits many pots, and a small blind of 7 makes many of them odd.
    const def = holdemDefinition({
      games: [{ game: 'omaha-hilo', structure: 'pot-limit' }],
      levels: [15, 25, 41, 61, 91, 137, 205, 307].map((big) => ({
        blinds: { small: Math.floor(big / 2), big },
      })),
      money: 'real',
      maxEntrants: 8,
      startingChips: 3000,
    });
    const { deps, errors } = botDeps({ seed: 5 });
    const seen = { recaps: 0, oddSplits: 0 };
    const recapsChecked: Promise<void>[] = [];
    const checkRecap = (recap: HandRecap | null) => {
      if (recap === null) return;
      seen.recaps++;
      expect(recap.rake).toBe(0);
      const pot = recap.players.reduce((sum, p) => sum + p.committed, 0);
      const winners = recap.players.filter((p) => p.won > 0);
      for (const p of recap.players) expect(Number.isSafeInteger(p.won)).toBe(true);
      if (winners.length > 1 && pot % winners.length !== 0) seen.oddSplits++;
    };
    const director: TournamentDirector = new TournamentDirector('tt', def, {
      ...deps,
      observe: (o) => {
        expect(o.chips).toBe(o.chipsSold);
        for (const table of director.tables()) {
          const view = table.view(null);
          expect(view.currency).toBe('chips');
          expect(view.stakesText).toMatch(/^\d+\/\d+$/);
          for (const seat of view.seats)
            if (seat !== null) expect(Number.isSafeInteger(seat.stack)).toBe(true);
          // The actor's recap is read as it stands now; the promise only carries it.
          recapsChecked.push(table.lastSummary(null).then(checkRecap));
        }
      },
    });
    for (let i = 1; i <= 8; i++) expect((await director.register(botRef(i))).ok).toBe(true);
    await director.done;
    await Promise.all(recapsChecked);
    expect(errors).toEqual([]);
    expect(seen.recaps).toBeGreaterThan(0);
    expect(seen.oddSplits).toBeGreaterThan(0);
    expect(director.figures().conserved).toBe(true);
  }, 60_000);

  it('a multi-table tournament: tables balanced within one after every hand, chips always those sold, the final table, one winner', async () => {
    const startsAt = Date.now() + 2000;
    const def = holdemDefinition({ kind: 'scheduled', startsAt, maxEntrants: 40, seats: 6 });
    const t = botTournament(def, { seed: 3 });
    await register(t, 27);
    expect(t.director.phase).toBe('registering');
    await t.director.done;
    expect(t.errors).toEqual([]);
    expect(t.director.entrants).toBe(27);
    expect(placesTaken(t.director.results())).toEqual(Array.from({ length: 27 }, (_, i) => i + 1));
    for (const o of t.observations) {
      expect(o.chips).toBe(o.chipsSold);
      const counts = o.tables.map(playersAt);
      const most = Math.max(...counts);
      // A long table still dealing its hand gives up its player after it.
      const longBusy = o.tables.some((table, i) => counts[i] === most && !o.idle.has(table.id));
      expect(isBalanced(o.tables) || longBusy).toBe(true);
    }
    const figures = t.director.figures();
    expect(figures.moves).toBeGreaterThan(0);
    expect(figures.finalTable).toBe(true);
    expect(figures.conserved).toBe(true);
  }, 120_000);

  it('hand-for-hand from the bubble: every table deals its hand together, and players out in one round share their places', async () => {
    // 14 players at 3 tables of 6 paying 6 places: the bubble (7 players left) comes while two tables play.
    const payouts = [{ fromEntrants: 2, shares: [4000, 2500, 1500, 1000, 600, 400] }];
    const def = holdemDefinition({
      kind: 'scheduled',
      startsAt: Date.now() + 1000,
      maxEntrants: 14,
      seats: 6,
      payouts,
    });
    // A bubble can burst in hands already dealing when it is reached: try seeds until one plays a round.
    for (let seed = 1; seed <= 10; seed++) {
      const t = botTournament({ ...def, startsAt: Date.now() + 500 }, { seed });
      await register(t, 14);
      await t.director.done;
      expect(t.errors).toEqual([]);
      const results = t.director.results();
      expect(placesTaken(results)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
      // Paid: exactly the players whose rank begins among the six paid places — players tied across the
      // last paid place (out in one round) share its prize with the first unpaid place's nothing (TDA).
      for (const r of results) expect(r.prize > 0).toBe(r.place <= 6);
      const prizes = t.director.prizeList();
      for (const place of new Set(results.map((r) => r.place))) {
        const group = results.filter((r) => r.place === place);
        const shared = prizes
          .slice(place - 1, place - 1 + group.length)
          .reduce((sum, prize) => sum + prize, 0);
        expect(group.reduce((sum, r) => sum + r.prize, 0)).toBe(shared);
      }
      expect(results.reduce((sum, r) => sum + r.prize, 0)).toBe(14 * 1000);
      if (t.director.figures().handForHandRounds > 0) return;
    }
    throw new Error('no tournament played a hand-for-hand round');
  }, 120_000);

  it('a hand-for-hand round deals only at tables with two players: a player alone at his table waits, and the round ends', async () => {
    // 3 players at tables of 2 seats paying 2 places: the bubble from the first hand, with the tables
    // drawn 2 and 1. A round waiting for the lone player's table never ended (seed 20,261,203).
    const def = holdemDefinition({
      maxEntrants: 3,
      seats: 2,
      payouts: [{ fromEntrants: 2, shares: [7000, 3000] }],
    });
    const t = botTournament(def);
    await register(t, 3);
    await t.director.done;
    expect(t.errors).toEqual([]);
    expect(t.director.figures().handForHandRounds).toBeGreaterThan(0);
    expect(placesTaken(t.director.results())).toEqual([1, 2, 3]);
    expect(t.director.results().reduce((sum, r) => sum + r.prize, 0)).toBe(3 * 1000);
  }, 60_000);

  it('unregistering before the start gives the seat back; after the start it is refused, and so is a new entry without late registration', async () => {
    const t = botTournament(holdemDefinition({ maxEntrants: 3 }));
    await register(t, 2);
    expect(await t.director.unregister(2)).toEqual({ ok: true, value: undefined });
    expect((await t.director.unregister(2)).ok).toBe(false);
    expect(t.director.entrants).toBe(1);
    await register(t, 2, 2);
    expect(t.director.phase).toBe('running');
    const refused = await t.director.unregister(1);
    expect(refused.ok || refused.error.code).toBe('ALREADY_STARTED');
    const late = await t.director.register(botRef(9));
    expect(late.ok || late.error.code).toBe('REGISTRATION_CLOSED');
    await t.director.done;
    expect(t.director.results()).toHaveLength(3);
  }, 60_000);

  it('a scheduled tournament short of its minimum at its time is cancelled', async () => {
    const t = botTournament(
      holdemDefinition({ kind: 'scheduled', startsAt: Date.now() + 200, minEntrants: 4 }),
    );
    await register(t, 3);
    await t.director.done;
    expect(t.director.phase).toBe('cancelled');
    expect(t.director.tables()).toEqual([]);
  });

  it('a mixed game: each level deals its game of the rotation at the same tables, to one winner, chips conserved', async () => {
    const limits = (small: number) => ({
      blinds: { small: small / 2, big: small },
      limits: { small, big: 2 * small },
      bringIn: small / 4,
      ante: small / 8,
    });
    const def = holdemDefinition({
      maxEntrants: 8,
      games: [
        { game: 'holdem', structure: 'fixed-limit' },
        { game: 'stud', structure: 'fixed-limit' },
      ],
      levels: [40, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560].map(limits),
    });
    const t = botTournament(def, { seed: 5 });
    await register(t, 8);
    await t.director.done;
    expect(t.errors).toEqual([]);
    expect(placesTaken(t.director.results())).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(t.director.figures().gameChanges).toBeGreaterThan(0);
    expect(t.director.figures().conserved).toBe(true);
  }, 120_000);

  /**
   * Plays `def` with `entrants` bots on a manual clock to its winner; the decisions the tables' action
   * clock took (a decision answered at or after its deadline) and the figures.
   */
  async function clockTaken(def: TournamentDefinition, entrants: number, seed: number) {
    const clock = manualClock();
    const { deps, errors } = botDeps({ clock, seed });
    const counted = countingClockDecisions(deps.follower!, clock);
    const director = new TournamentDirector('tt', def, { ...deps, follower: counted.follower });
    for (let i = 1; i <= entrants; i++) expect((await director.register(botRef(i))).ok).toBe(true);
    await driveUntil(clock, () => director.phase === 'finished', { stepMs: 5, limitMs: 24 * 3_600_000 });
    expect(errors).toEqual([]);
    return { taken: counted.taken(), figures: director.figures() };
  }

  it('in-process bots are offered every decision wherever they are moved: the action clock takes none, in hold’em and in a mixed game of new tables each level', async () => {
    const holdem = await clockTaken(holdemDefinition({ maxEntrants: 18, seats: 6 }), 18, 11);
    expect(holdem.figures.moves).toBeGreaterThan(0);
    expect(holdem.figures.finalTable).toBe(true);
    expect(holdem.taken).toBe(0);
    const small = 200;
    const level = (bet: number) => ({
      blinds: { small: bet / 2, big: bet },
      limits: { small: bet, big: 2 * bet },
      bringIn: bet / 4,
      ante: bet / 8,
    });
    const mixed = holdemDefinition({
      maxEntrants: 16,
      startingChips: 5000,
      games: [
        { game: 'holdem', structure: 'fixed-limit' },
        { game: 'omaha-hilo', structure: 'fixed-limit' },
        { game: 'stud', structure: 'fixed-limit' },
        { game: 'stud-hilo', structure: 'fixed-limit' },
      ],
      rotateEvery: 'level',
      levels: [small, 2 * small, 4 * small, 8 * small, 16 * small, 32 * small].map(level),
      levelLength: { unit: 'hands', value: 5 },
    });
    const rotation = await clockTaken(mixed, 16, 12);
    expect(rotation.figures.moves).toBeGreaterThan(0);
    expect(rotation.figures.gameChanges).toBeGreaterThan(0);
    expect(rotation.taken).toBe(0);
  }, 120_000);
});
