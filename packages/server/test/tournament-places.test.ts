import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHandForHand, placeEliminations, prizesOf } from '../src/tournament/index.js';

describe('eliminations (TDA)', () => {
  it('players out in the same hand at one table rank by their stacks at its start, bigger higher', () => {
    const finishes = placeEliminations(10, [
      { player: 'small', table: 1, startingStack: 300 },
      { player: 'big', table: 1, startingStack: 900 },
    ]);
    expect(finishes).toEqual([
      { player: 'big', place: 9, tied: 1 },
      { player: 'small', place: 10, tied: 1 },
    ]);
  });

  it('equal stacks in the same hand tie and share the prizes of their places, odd cents to the higher place', () => {
    const finishes = placeEliminations(4, [
      { player: 'x', table: 1, startingStack: 500 },
      { player: 'y', table: 1, startingStack: 500 },
    ]);
    expect(finishes).toEqual([
      { player: 'x', place: 3, tied: 2 },
      { player: 'y', place: 3, tied: 2 },
    ]);
    // 3rd 1,001 + 4th 500 = 1,501: 751 and 750.
    expect(prizesOf(finishes, [5_000, 3_000, 1_001, 500])).toEqual(
      new Map([
        ['x', 751],
        ['y', 750],
      ]),
    );
  });

  it('players out in the same hand-for-hand round at different tables tie, whatever their stacks', () => {
    const finishes = placeEliminations(11, [
      { player: 'a', table: 1, startingStack: 100 },
      { player: 'b', table: 2, startingStack: 5_000 },
    ]);
    expect(finishes).toEqual([
      { player: 'a', place: 10, tied: 2 },
      { player: 'b', place: 10, tied: 2 },
    ]);
    // Places 10 and 11: one prize of 2,000 and nothing: 1,000 each.
    const prizes = [...Array<number>(9).fill(5_000), 2_000];
    expect(prizesOf(finishes, prizes)).toEqual(
      new Map([
        ['a', 1_000],
        ['b', 1_000],
      ]),
    );
  });

  it('across tables the k-th best out at each table share a rank', () => {
    const finishes = placeEliminations(12, [
      { player: 'a1', table: 1, startingStack: 800 },
      { player: 'a2', table: 1, startingStack: 200 },
      { player: 'b1', table: 2, startingStack: 100 },
    ]);
    expect(finishes).toEqual([
      { player: 'a1', place: 10, tied: 2 },
      { player: 'b1', place: 10, tied: 2 },
      { player: 'a2', place: 12, tied: 1 },
    ]);
  });

  it('rejects duplicate players or as many out as were in', () => {
    expect(() =>
      placeEliminations(2, [
        { player: 'a', table: 1, startingStack: 1 },
        { player: 'b', table: 1, startingStack: 1 },
      ]),
    ).toThrow(RangeError);
    expect(() =>
      placeEliminations(5, [
        { player: 'a', table: 1, startingStack: 1 },
        { player: 'a', table: 1, startingStack: 2 },
      ]),
    ).toThrow(RangeError);
  });

  it('property: the places taken are the last ones, and the shares add up to their prizes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 30 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 30, maxLength: 30 }),
        (before, outs, prizes) => {
          const out = outs
            .slice(0, before - 1)
            .map(([table, stack], i) => ({ player: `p${i}`, table, startingStack: stack }));
          const finishes = placeEliminations(before, out);
          const taken = finishes.flatMap((f) =>
            finishes.find((g) => g.place === f.place) === f
              ? Array.from({ length: f.tied }, (_, k) => f.place + k)
              : [],
          );
          expect(taken.sort((a, b) => a - b)).toEqual(
            Array.from({ length: out.length }, (_, k) => before - out.length + 1 + k),
          );
          const paid = [...prizesOf(finishes, prizes).values()].reduce((a, b) => a + b, 0);
          expect(paid).toBe(prizes.slice(before - out.length, before).reduce((a, b) => a + b, 0));
        },
      ),
    );
  });
});

describe('hand-for-hand', () => {
  it('from the bubble: one more player left than places paid, on more than one table', () => {
    expect(isHandForHand(16, 15, 2)).toBe(true);
    expect(isHandForHand(17, 15, 2)).toBe(false);
    expect(isHandForHand(15, 15, 2)).toBe(false);
    expect(isHandForHand(4, 3, 1)).toBe(false);
  });
});
