/**
 * Eliminations, places and shares (TDA), and the hand-for-hand predicate. Pure.
 *
 * Players out in the same hand at one table rank by their stacks at the start of that hand (bigger
 * higher; equal stacks tie). Players out in the same hand-for-hand round at different tables tie: the
 * k-th best of each table's eliminated players share one rank. Tied players share the prizes of the
 * places they take equally; odd cents go one each to the tied players in the order they were given
 * (the caller lists a table's players from the seat after the button, as TDA gives odd chips).
 */
import type { PlayerId } from './seating.js';

export interface Elimination {
  readonly player: PlayerId;
  readonly table: number;
  /** His stack at the start of the hand he went out in. */
  readonly startingStack: number;
}

export interface Finish {
  readonly player: PlayerId;
  /** The best place of his rank (1 = winner). */
  readonly place: number;
  /** How many players share his rank (1 = alone); they take places `place` to `place + tied - 1`. */
  readonly tied: number;
}

/**
 * The places of the players out in one hand (one table), or in one hand-for-hand round (several
 * tables), when `playersBefore` were in before it.
 */
export function placeEliminations(playersBefore: number, out: readonly Elimination[]): Finish[] {
  if (
    !Number.isSafeInteger(playersBefore) ||
    out.length >= playersBefore ||
    new Set(out.map((e) => e.player)).size < out.length
  )
    throw new RangeError('eliminations: distinct players, fewer than were in');
  // Each player's rank at his own table: 0 = the best, equal stacks equal rank.
  const rankAtTable = out.map(
    (e) => out.filter((o) => o.table === e.table && o.startingStack > e.startingStack).length,
  );
  const distinct = [...new Set(rankAtTable)].sort((a, b) => a - b);
  const finishes: Finish[] = [];
  let place = playersBefore - out.length + 1;
  for (const rank of distinct) {
    const group = out.filter((_, i) => rankAtTable[i] === rank);
    for (const e of group) finishes.push({ player: e.player, place, tied: group.length });
    place += group.length;
  }
  return finishes;
}

/**
 * The prize of each finish, in cents: the prizes of the places a rank takes (`prizes[0]` = 1st place),
 * shared equally, odd cents one each in the order the finishes are given.
 */
export function prizesOf(finishes: readonly Finish[], prizes: readonly number[]): Map<PlayerId, number> {
  const result = new Map<PlayerId, number>();
  const groups = new Map<number, Finish[]>();
  for (const f of finishes) groups.set(f.place, [...(groups.get(f.place) ?? []), f]);
  for (const [place, group] of groups) {
    const total = prizes.slice(place - 1, place - 1 + group.length).reduce((a, b) => a + b, 0);
    const share = Math.floor(total / group.length);
    const odd = total - share * group.length;
    group.forEach((f, i) => result.set(f.player, share + (i < odd ? 1 : 0)));
  }
  return result;
}

/** Hand-for-hand play: from the bubble, when one more player remains than places are paid (and while more than one table plays). */
export function isHandForHand(playersLeft: number, placesPaid: number, tables: number): boolean {
  return tables > 1 && playersLeft === placesPaid + 1;
}
