import { seededRandom, shuffleInPlace } from '@felt/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  drawSeats,
  isBalanced,
  nextBigBlindSeat,
  rebalance,
  removePlayers,
  seatNewPlayer,
  tablesNeeded,
  totalPlayers,
  type ButtonHand,
  type PlayerId,
  type SeatingTable,
} from '../src/tournament/index.js';

/** A table from a row of seats: a name per seat, '.' = free. */
const table = (id: number, row: string, lastButtonHand: ButtonHand | null = null): SeatingTable => ({
  id,
  seats: row.split(' ').map((p) => (p === '.' ? null : p)),
  lastButtonHand,
});

const everyone = (tables: readonly SeatingTable[]): PlayerId[] =>
  tables.flatMap((t) => t.seats.filter((p) => p !== null)).sort();

describe('initial draw', () => {
  it('draws every player once, over as few tables as hold them, balanced within one', () => {
    const players = Array.from({ length: 25 }, (_, i) => `p${i}`);
    const tables = drawSeats(players, 9, seededRandom(1));
    expect(tables.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(everyone(tables)).toEqual([...players].sort());
    expect(isBalanced(tables)).toBe(true);
    expect(drawSeats(players, 9, seededRandom(1))).toEqual(tables);
    expect(drawSeats(players, 9, seededRandom(2))).not.toEqual(tables);
  });
});

describe('balancing (TDA)', () => {
  it('moves the player who is big blind next at the long table into the seat that is big blind next at the short table', () => {
    const long = table(1, 'a0 a1 a2 a3 a4 a5 a6 a7 a8', { button: 2, smallBlind: 3, bigBlind: 4 });
    const short = table(2, 'b0 . b2 b3 b4 b5 . b7 b8', { button: 3, smallBlind: 4, bigBlind: 5 });
    expect(nextBigBlindSeat(long)).toBe(5);
    const { tables, moves } = rebalance([long, short], 9, seededRandom(1));
    expect(moves).toEqual([
      { from: { table: 1, seat: 5 }, to: { player: 'a5', table: 2, seat: 6, dealtIn: 'now' } },
    ]);
    expect(tables.map((t) => t.seats.filter((p) => p !== null).length)).toEqual([8, 8]);
  });

  it('never seats the moved player in the small blind (the dead small blind’s free seat)', () => {
    const long = table(1, 'a0 a1 a2 a3 a4 a5 a6 a7 a8', { button: 2, smallBlind: 3, bigBlind: 4 });
    // The last big blind (seat 5) went out: next hand's small blind is dead there.
    const short = table(2, 'b0 b1 b2 b3 b4 . b6 b7 .', { button: 3, smallBlind: 4, bigBlind: 5 });
    const { moves } = rebalance([long, short], 9, seededRandom(1));
    expect(moves).toEqual([
      { from: { table: 1, seat: 5 }, to: { player: 'a5', table: 2, seat: 8, dealtIn: 'now' } },
    ]);
  });

  it('mixed games: during stud rounds the frozen button decides, the player moved is the flop game’s next big blind', () => {
    // The last hold'em hand had its big blind in seat 1; stud hands since moved no button.
    const frozen = { button: 7, smallBlind: 0, bigBlind: 1 };
    const long = table(1, 'a0 a1 a2 a3 a4 a5 a6 a7', frozen);
    const short = table(2, 'b0 b1 . b3 b4 . b6 .', frozen);
    const { moves } = rebalance([long, short], 8, seededRandom(9));
    expect(moves).toEqual([
      { from: { table: 1, seat: 2 }, to: { player: 'a2', table: 2, seat: 2, dealtIn: 'now' } },
    ]);
  });

  it('moves from a table only between its hands', () => {
    const long = table(1, 'a0 a1 a2 a3 a4 a5 a6 a7 a8', { button: 2, smallBlind: 3, bigBlind: 4 });
    const short = table(2, 'b0 . b2 b3 b4 b5 . b7 b8', { button: 3, smallBlind: 4, bigBlind: 5 });
    expect(rebalance([long, short], 9, seededRandom(1), new Set([2])).moves).toEqual([]);
  });

  it('stud (no button): the player moved and his new seat are drawn at random', () => {
    const long = table(1, 'a0 a1 a2 a3 a4 a5 a6 a7');
    const short = table(2, 'b0 . b2 b3 . b5 . b7');
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const { moves, tables } = rebalance([long, short], 8, seededRandom(seed));
      expect(moves).toHaveLength(1);
      expect(isBalanced(tables)).toBe(true);
      seen.add(`${moves[0]!.to.player}@${moves[0]!.to.seat}`);
    }
    expect(seen.size).toBeGreaterThan(10);
  });
});

describe('breaking tables', () => {
  it('breaks the table with the fewest players (ties: the highest number) and draws its players into the free seats', () => {
    const tables = [
      table(1, 'a0 a1 a2 a3 a4 a5 . . .'),
      table(2, 'b0 b1 b2 b3 b4 . . . .'),
      table(3, 'c0 c1 c2 c3 c4 . . . .'),
    ];
    const result = rebalance(tables, 9, seededRandom(3));
    expect(result.broken).toEqual([3]);
    expect(result.tables.map((t) => t.id)).toEqual([1, 2]);
    expect(everyone(result.tables)).toEqual(everyone(tables));
    expect(isBalanced(result.tables)).toBe(true);
    expect(result.moves.map((m) => m.from.table)).toEqual([3, 3, 3, 3, 3]);
  });

  it('forms the final table when everybody left fits at one: all drawn at random again', () => {
    const tables = [
      table(1, 'a0 a1 a2 . a4 . . . .', { button: 0, smallBlind: 1, bigBlind: 2 }),
      table(2, 'b0 b1 b2 b3 b4 . . . .'),
    ];
    const result = rebalance(tables, 9, seededRandom(4));
    expect(result.finalTable).toBe(true);
    expect(result.tables).toHaveLength(1);
    expect(result.tables[0]).toMatchObject({ id: 1, lastButtonHand: null });
    expect(everyone(result.tables)).toEqual(everyone(tables));
    expect(result.moves).toHaveLength(9);
    expect(rebalance(tables, 9, seededRandom(4), new Set([1])).finalTable).toBe(false);
  });
});

describe('late registration and re-entry', () => {
  it('seats the new player at a shortest table, dealt in at once', () => {
    const tables = [
      table(1, 'a0 a1 a2 .', { button: 0, smallBlind: 1, bigBlind: 2 }),
      table(2, 'b0 b1 . .', { button: 0, smallBlind: 1, bigBlind: 0 }),
    ];
    const { placement } = seatNewPlayer(tables, 'x', 4, seededRandom(5));
    expect(placement.table).toBe(2);
    expect([2, 3]).toContain(placement.seat);
  });

  it('a seat between the small blind and the button is dealt in only after the button passes', () => {
    // Next hand: button seat 3 (last small blind), small blind seat 5 (last big blind); seat 4 lies between.
    const tables = [table(1, 'a0 a1 a2 a3 . a5', { button: 2, smallBlind: 3, bigBlind: 5 })];
    expect(seatNewPlayer(tables, 'x', 6, seededRandom(6)).placement).toEqual({
      player: 'x',
      table: 1,
      seat: 4,
      dealtIn: 'after-button',
    });
  });

  it('every table full: a new table, filled by balancing', () => {
    const tables = [table(1, 'a0 a1 a2'), table(2, 'b0 b1 b2')];
    const seated = seatNewPlayer(tables, 'x', 3, seededRandom(7));
    expect(seated.placement.table).toBe(3);
    const { tables: after } = rebalance(seated.tables, 3, seededRandom(7));
    expect(isBalanced(after)).toBe(true);
    expect(everyone(after)).toEqual([...everyone(tables), 'x'].sort());
  });
});

describe('property: seating after any eliminations', () => {
  it('tables stay balanced within one, as few as hold everybody, nobody lost or duplicated', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 70 }),
        fc.integer({ min: 2, max: 10 }),
        fc.integer(),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 40 }),
        (entrants, seats, seed, rounds) => {
          const random = seededRandom(seed);
          const players = Array.from({ length: entrants }, (_, i) => `p${i}`);
          let tables: readonly SeatingTable[] = drawSeats(players, seats, random);
          let alive = new Set(players);
          let late = 0;
          for (const [outCount, register] of rounds) {
            // Each table deals a hand: give it button positions, as a table would.
            tables = tables.map((t) => {
              const bigBlind = random.nextUint32() % t.seats.length;
              const n = t.seats.length;
              return {
                ...t,
                lastButtonHand: {
                  bigBlind,
                  smallBlind: (bigBlind + n - 1) % n,
                  button: (bigBlind + n - 2) % n,
                },
              };
            });
            const out = new Set(
              shuffleInPlace([...alive], random).slice(0, Math.min(outCount, alive.size - 1)),
            );
            tables = removePlayers(tables, out);
            alive = new Set([...alive].filter((p) => !out.has(p)));
            if (register) {
              const seated = seatNewPlayer(tables, `late${late}`, seats, random);
              tables = seated.tables;
              alive.add(`late${late++}`);
            }
            tables = rebalance(tables, seats, random).tables;
            expect(isBalanced(tables)).toBe(true);
            expect(tables).toHaveLength(tablesNeeded(totalPlayers(tables), seats));
            expect(everyone(tables)).toEqual([...alive].sort());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
