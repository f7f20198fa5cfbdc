/**
 * A tournament's money through the ledger, on real storage (a SQLite file; PostgreSQL when it answers):
 * the buy-in to the prize pool and the fee to the house, refunds, prizes from the pool, the audit of
 * the pools; and, over random small tournaments of bots, the rules that hold for every one of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openMigratedPostgresStorage, openMigratedSqliteStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { seededRandom } from '@felt/engine';
import { TournamentDirector, type Placed, type Purchase } from '../src/tournament/director.js';
import { ledgerMoney } from '../src/tournament/money.js';
import { payoutTable } from '../src/tournament/payouts.js';
import { isBalanced, playersAt, totalPlayers } from '../src/tournament/seating.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import {
  botDeps,
  botTournament,
  holdemDefinition,
  placesTaken,
  skippingClock,
} from './tournament-helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sqlite = (): Promise<Storage> => {
  const dir = mkdtempSync(join(tmpdir(), 'felt-tournament-'));
  dirs.push(dir);
  return openMigratedSqliteStorage({ file: join(dir, 'felt.db') });
};

/** `n` players with `balance` play money each; their accounts. */
async function players(storage: Storage, n: number, balance: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const user = await storage.createUser({
      name: `p${i}-${ids.length}`,
      passwordHash: 'x',
      passwordSalt: 'x',
    });
    if (!user.ok) throw new Error(user.error.message);
    await storage.topUp(user.value.id, balance);
    ids.push(user.value.id);
  }
  return ids;
}

const ref = (account: number) => ({ account, name: `Bot ${account}`, bot: true });

const reachable = await postgresReachable();
const db = reachable ? testDatabase() : null;
const backends: [string, () => Promise<Storage>][] = [['SQLite', sqlite]];
if (db !== null)
  backends.push([
    'PostgreSQL',
    async () => openMigratedPostgresStorage({ url: await db.freshSchema(), poolSize: 4 }),
  ]);

describe.each(backends)('tournament money (%s)', (_name, open) => {
  it('an entry takes the buy-in to the prize pool and the fee to the house; unregistering gives both back', async () => {
    const storage = await open();
    try {
      const [ann, bob] = await players(storage, 2, 5000);
      const t = botTournament(holdemDefinition({ maxEntrants: 3 }), {
        money: ledgerMoney(storage, 'sng-1', 'play'),
      });
      expect((await t.director.register(ref(ann!))).ok).toBe(true);
      expect((await t.director.register(ref(bob!))).ok).toBe(true);
      expect((await storage.balances(ann!)).play).toBe(5000 - 1100);
      let audit = await storage.audit();
      expect(audit.currencies.play).toMatchObject({ prizePools: 2000, house: 200, sum: 0 });
      expect((await t.director.unregister(bob!)).ok).toBe(true);
      expect((await storage.balances(bob!)).play).toBe(5000);
      audit = await storage.audit();
      expect(audit.problems).toEqual([]);
      expect(audit.prizePools).toEqual([
        { tournamentId: 'sng-1', currency: 'play', entered: 2000, paid: 0, refunded: 1000, held: 1000 },
      ]);
      expect(audit.currencies.play).toMatchObject({ prizePools: 1000, house: 100 });
      await t.director.cancel();
    } finally {
      await storage.close();
    }
  });

  it('a player short of his buy-in and fee is refused and nothing changes', async () => {
    const storage = await open();
    try {
      const [poor] = await players(storage, 1, 1099);
      const t = botTournament(holdemDefinition(), { money: ledgerMoney(storage, 'sng-2', 'play') });
      const refused = await t.director.register(ref(poor!));
      expect(refused.ok || refused.error.code).toBe('INSUFFICIENT_FUNDS');
      expect(t.director.entrants).toBe(0);
      expect((await storage.balances(poor!)).play).toBe(1099);
      expect((await storage.audit()).prizePools).toEqual([]);
      await t.director.cancel();
    } finally {
      await storage.close();
    }
  });

  it('a cancelled tournament gives every entrant his buy-in and fee back', async () => {
    const storage = await open();
    try {
      const ids = await players(storage, 4, 2000);
      const t = botTournament(holdemDefinition({ maxEntrants: 9 }), {
        money: ledgerMoney(storage, 'sng-3', 'play'),
      });
      for (const id of ids) expect((await t.director.register(ref(id))).ok).toBe(true);
      expect((await t.director.cancel()).ok).toBe(true);
      for (const id of ids) expect((await storage.balances(id)).play).toBe(2000);
      const audit = await storage.audit();
      expect(audit.conserved).toBe(true);
      expect(audit.prizePools).toEqual([
        { tournamentId: 'sng-3', currency: 'play', entered: 4000, paid: 0, refunded: 4000, held: 0 },
      ]);
      expect(audit.currencies.play).toMatchObject({ prizePools: 0, house: 0 });
    } finally {
      await storage.close();
    }
  });
});

/** The prizes of each rank equal the prizes of the places it takes: so exactly the table's places are paid. */
function expectPlacesPaid(results: readonly Placed[], prizeList: readonly number[]): void {
  const byPlace = new Map<number, Placed[]>();
  for (const r of results) byPlace.set(r.place, [...(byPlace.get(r.place) ?? []), r]);
  for (const [place, group] of byPlace) {
    const due = prizeList.slice(place - 1, place - 1 + group.length).reduce((a, b) => a + b, 0);
    expect(group.reduce((a, r) => a + r.prize, 0)).toBe(due);
  }
}

const LONG = process.env['FELT_LONG'] === '1';
/** A scheduled start an hour away, reached by skipping the clock once everybody has registered. */
const HOUR_MS = 3_600_000;
const LONG_TIMEOUT_MS = LONG ? 1_800_000 : 300_000;

// Fixed cases in the ordinary run (seed 20,261,203 drew the hand-for-hand round that waited for a lone
// player's table: docs/tournaments.md, "Known faults"); FELT_LONG=1 draws new ones each time.
const RUNS: readonly fc.Parameters<unknown>[] = LONG
  ? [{ numRuns: 30 }]
  : [
      { numRuns: 6, seed: 7 },
      { numRuns: 6, seed: 20261203 },
    ];

describe('random small tournaments of bots, money in the ledger (SQLite)', () => {
  it.each(RUNS)(
    'chips always those sold, tables balanced within one, prizes paid equal the pool, exactly the table’s places paid, the ledger conserved (%o)',
    async (runs) => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            entrants: fc.integer({ min: 2, max: 22 }),
            seats: fc.integer({ min: 2, max: 9 }),
            buyIn: fc.integer({ min: 0, max: 500 }),
            fee: fc.integer({ min: 0, max: 50 }),
            seed: fc.integer({ min: 1, max: 1_000_000 }),
          }),
          async ({ entrants, seats, buyIn, fee, seed }) => {
            const storage = await sqlite();
            try {
              const ids = await players(storage, entrants, 1000);
              const id = `mtt-${seed}`;
              const { clock, skip } = skippingClock();
              const def = holdemDefinition({
                kind: 'scheduled',
                startsAt: clock.now() + HOUR_MS,
                maxEntrants: entrants,
                seats,
                buyIn,
                fee,
              });
              const t = botTournament(def, { seed, money: ledgerMoney(storage, id, 'play'), clock });
              for (const account of ids) expect((await t.director.register(ref(account))).ok).toBe(true);
              skip(HOUR_MS);
              await t.director.tick();
              await t.director.done;
              expect(t.errors).toEqual([]);
              for (const o of t.observations) {
                expect(o.chips).toBe(o.chipsSold);
                const counts = o.tables.map(playersAt);
                const most = Math.max(...counts);
                const longBusy = o.tables.some((table, i) => counts[i] === most && !o.idle.has(table.id));
                // Everybody fits at one table: nobody is moved, the final table is drawn once every
                // table is between hands (seed 733,084 on a busy machine: 4 and 2 at 7-seat tables).
                const finalTableDue = o.tables.length > 1 && totalPlayers(o.tables) <= seats;
                expect(isBalanced(o.tables) || longBusy || finalTableDue).toBe(true);
              }
              const results = t.director.results();
              const prizeList = t.director.prizeList();
              expect(prizeList.reduce((a, b) => a + b, 0)).toBe(entrants * buyIn);
              expect(prizeList).toHaveLength(payoutTable(entrants).length);
              expectPlacesPaid(results, prizeList);
              expect(results.reduce((a, r) => a + r.prize, 0)).toBe(entrants * buyIn);
              const audit = await storage.audit();
              expect(audit.problems).toEqual([]);
              expect(audit.currencies.play).toMatchObject({ prizePools: 0, house: entrants * fee, sum: 0 });
              for (let i = 0; i < ids.length; i++) {
                const prize = results.find((r) => r.account === ids[i])!.prize;
                expect((await storage.balances(ids[i]!)).play).toBe(1000 - buyIn - fee + prize);
              }
            } finally {
              await storage.close();
            }
          },
        ),
        runs,
      );
    },
    LONG_TIMEOUT_MS,
  );
});

describe('random tournaments with rebuys, add-ons and re-entries, money in the ledger (SQLite)', () => {
  const WINDOW = { fromLevel: 0, untilLevel: 5 };
  const PRICES: Record<Purchase, number> = { rebuy: 200 + 20, 'add-on': 100 + 10, 're-entry': 300 + 30 };
  const COSTS: Record<Purchase, number> = { rebuy: 200, 'add-on': 100, 're-entry': 300 };
  const KINDS: readonly Purchase[] = ['rebuy', 'add-on', 're-entry'];
  const sold: Record<Purchase, number> = { rebuy: 0, 'add-on': 0, 're-entry': 0 };

  it(
    'whatever is bought when: chips always those sold, each place taken once by each player, prizes paid equal everything sold, each balance less what he bought plus his prize, the ledger conserved',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            entrants: fc.integer({ min: 3, max: 12 }),
            seats: fc.integer({ min: 2, max: 6 }),
            seed: fc.integer({ min: 1, max: 1_000_000 }),
          }),
          async ({ entrants, seats, seed }) => {
            const storage = await sqlite();
            try {
              const ids = await players(storage, entrants, 5000);
              const id = `buys-${seed}`;
              const { clock, skip } = skippingClock();
              const def = holdemDefinition({
                kind: 'scheduled',
                startsAt: clock.now() + HOUR_MS,
                maxEntrants: entrants,
                seats,
                buyIn: 300,
                fee: 30,
                rebuy: { cost: 200, fee: 20, chips: 500, maxPerPlayer: 2, maxStack: 1500, window: WINDOW },
                addOn: {
                  cost: 100,
                  fee: 10,
                  chips: 800,
                  maxPerPlayer: 1,
                  window: { fromLevel: 2, untilLevel: 4 },
                },
                reEntry: { maxPerPlayer: 1, window: WINDOW },
              });
              const t = botDeps({ seed, money: ledgerMoney(storage, id, 'play'), clock });
              const roll = seededRandom(seed + 1);
              const buys: Promise<void>[] = [];
              const spent = new Map<number, number>(ids.map((account) => [account, 300 + 30]));
              let pool = entrants * 300;
              // After a third of the hands somebody tries to buy something: whatever the rules then allow goes through.
              const tryToBuy = () => {
                if (roll.nextUint32() % 3 !== 0) return;
                const account = ids[roll.nextUint32() % ids.length]!;
                const kind = KINDS[roll.nextUint32() % KINDS.length]!;
                buys.push(
                  director.buy(account, kind).then((bought) => {
                    if (!bought.ok) return;
                    sold[kind]++;
                    spent.set(account, spent.get(account)! + PRICES[kind]);
                    pool += COSTS[kind];
                  }),
                );
              };
              const director = new TournamentDirector(id, def, {
                ...t.deps,
                observe: (o) => {
                  t.observations.push(o);
                  tryToBuy();
                },
              });
              for (const account of ids) expect((await director.register(ref(account))).ok).toBe(true);
              skip(HOUR_MS);
              await director.tick();
              await director.done;
              await Promise.all(buys);
              expect(t.errors).toEqual([]);
              for (const o of t.observations) expect(o.chips).toBe(o.chipsSold);
              expect(director.figures().conserved).toBe(true);
              const results = director.results();
              expect(placesTaken(results)).toEqual(Array.from({ length: entrants }, (_, i) => i + 1));
              expect(director.prizeList().reduce((a, b) => a + b, 0)).toBe(pool);
              expect(results.reduce((a, r) => a + r.prize, 0)).toBe(pool);
              const audit = await storage.audit();
              expect(audit.problems).toEqual([]);
              const fees = [...spent.values()].reduce((a, b) => a + b, 0) - pool;
              expect(audit.currencies.play).toMatchObject({ prizePools: 0, house: fees, sum: 0 });
              for (const account of ids) {
                const prize = results.find((r) => r.account === account)!.prize;
                expect((await storage.balances(account)).play).toBe(5000 - spent.get(account)! + prize);
              }
            } finally {
              await storage.close();
            }
          },
        ),
        LONG ? { numRuns: 20 } : { numRuns: 4, seed: 11 },
      );
      // The cases did buy each kind (not a property that holds vacuously).
      for (const kind of KINDS) expect(sold[kind], kind).toBeGreaterThan(0);
    },
    LONG_TIMEOUT_MS,
  );

  it('a cancelled tournament gives back every entry, rebuy, add-on and re-entry', async () => {
    const storage = await sqlite();
    try {
      const ids = await players(storage, 2, 5000);
      const def = holdemDefinition({
        maxEntrants: 2,
        buyIn: 300,
        fee: 30,
        rebuy: { cost: 200, fee: 20, chips: 500, maxPerPlayer: 2, maxStack: 5000, window: WINDOW },
        addOn: { cost: 100, fee: 10, chips: 800, maxPerPlayer: 1, window: WINDOW },
      });
      // The bots think a minute: the first hand is still being dealt when everything is bought.
      const t = botTournament(def, { thinkMs: 60_000, money: ledgerMoney(storage, 'sng-buys', 'play') });
      for (const account of ids) expect((await t.director.register(ref(account))).ok).toBe(true);
      expect(t.director.phase).toBe('running');
      const [ann, bob] = ids as [number, number];
      expect((await t.director.buy(ann, 'rebuy')).ok).toBe(true);
      expect((await t.director.buy(ann, 'rebuy')).ok).toBe(true);
      expect(await t.director.buy(ann, 'rebuy')).toMatchObject({
        ok: false,
        error: { code: 'LIMIT_REACHED' },
      });
      expect((await t.director.buy(bob, 'add-on')).ok).toBe(true);
      expect(await t.director.buy(bob, 're-entry')).toMatchObject({
        ok: false,
        error: { code: 'NOT_OFFERED' },
      });
      expect((await storage.balances(ann)).play).toBe(5000 - 330 - 2 * 220);
      expect((await storage.balances(bob)).play).toBe(5000 - 330 - 110);
      expect(t.director.prizeList()).toEqual([2 * 300 + 2 * 200 + 100]);
      expect(t.director.standings().map((e) => e.stack)).toEqual([1000 + 2 * 500, 1000 + 800]);
      expect((await t.director.cancel()).ok).toBe(true);
      t.bots.stop();
      for (const account of ids) expect((await storage.balances(account)).play).toBe(5000);
      const audit = await storage.audit();
      expect(audit.conserved).toBe(true);
      expect(audit.currencies.play).toMatchObject({ prizePools: 0, house: 0 });
    } finally {
      await storage.close();
    }
  });
});
