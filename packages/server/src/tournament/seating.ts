/**
 * Seating: the initial draw, balancing, breaking tables, the final table and late seats (TDA). Pure:
 * tables in, tables and the moves made out; randomness from the injected `RandomSource` (production:
 * the cryptographic one).
 *
 * Positions follow the dead-button rule (TDA): each hand the big blind moves to the next player after
 * the last big blind, the small blind takes the last big blind's seat (dead if that seat is empty) and
 * the button the last small blind's. A table records the seats of its last button hand
 * (`lastButtonHand`); in mixed games the button freezes during stud rounds, so the record is the last
 * flop or draw game's and "who is big blind next" means the big blind of the next button game.
 *
 * Stud games have no button: at a table without a button record (a stud-only tournament, or a mixed
 * game before its first button hand) the player moved is drawn at random at the long table and takes a
 * seat drawn at random at the short one: stud positions are decided by the cards, so every seat is
 * worth the same.
 */
import { randomBelow, shuffleInPlace, type RandomSource } from '@felt/engine';
import { behindTheBlinds } from '../table/seating.js';

export type PlayerId = string;

/** Seats (indexes into `SeatingTable.seats`) of the last hand dealt with a button. */
export interface ButtonHand {
  readonly button: number;
  readonly smallBlind: number;
  readonly bigBlind: number;
}

export interface SeatingTable {
  readonly id: number;
  /** The player in each seat, clockwise; null = free. */
  readonly seats: readonly (PlayerId | null)[];
  /** The last button hand's positions; null before the first one (and always in stud-only tournaments). */
  readonly lastButtonHand: ButtonHand | null;
}

/**
 * Where a player is seated. 'now': dealt in from the next hand. 'after-button': his seat is between
 * the button and the small blind of the next hand (both included), where he would skip the blinds,
 * so he is dealt in once the button has passed him.
 */
export interface Placement {
  readonly player: PlayerId;
  readonly table: number;
  readonly seat: number;
  readonly dealtIn: 'now' | 'after-button';
}

export interface Move {
  readonly from: { readonly table: number; readonly seat: number };
  readonly to: Placement;
}

export interface Rebalanced {
  readonly tables: readonly SeatingTable[];
  readonly moves: readonly Move[];
  /** Tables broken (their ids), in order. */
  readonly broken: readonly number[];
  /** Whether the final table was drawn by this call. */
  readonly finalTable: boolean;
}

export const playersAt = (table: SeatingTable): number => table.seats.filter((p) => p !== null).length;

export const totalPlayers = (tables: readonly SeatingTable[]): number =>
  tables.reduce((n, t) => n + playersAt(t), 0);

/** Tables needed for `players` at `seats` per table. */
export const tablesNeeded = (players: number, seats: number): number =>
  Math.max(1, Math.ceil(players / seats));

/** Whether the tables are balanced: no table has two players more than another. */
export function isBalanced(tables: readonly SeatingTable[]): boolean {
  const counts = tables.map(playersAt);
  return counts.length === 0 || Math.max(...counts) - Math.min(...counts) <= 1;
}

/** The seats clockwise after `seat` (excluded), once round the table, ending with `seat` itself. */
function clockwiseFrom(seat: number, size: number): number[] {
  return Array.from({ length: size }, (_, k) => (seat + 1 + k) % size);
}

/** The seat of the player who is big blind next hand (dead button), or null without a button record. */
export function nextBigBlindSeat(table: SeatingTable): number | null {
  const last = table.lastButtonHand;
  if (last === null) return null;
  return clockwiseFrom(last.bigBlind, table.seats.length).find((s) => table.seats[s] !== null) ?? null;
}

/** Seats between the next hand's button and its small blind, both included (../table/seating.ts). */
function behindTheButton(table: SeatingTable): ReadonlySet<number> {
  const last = table.lastButtonHand;
  return last === null ? new Set() : behindTheBlinds(last.smallBlind, last.bigBlind, table.seats.length);
}

function placement(table: SeatingTable, player: PlayerId, seat: number): Placement {
  return {
    player,
    table: table.id,
    seat,
    dealtIn: behindTheButton(table).has(seat) ? 'after-button' : 'now',
  };
}

const freeSeats = (table: SeatingTable): number[] => table.seats.flatMap((p, s) => (p === null ? [s] : []));

/**
 * The worst position at a table for a player moved in (TDA): the seat that is big blind next if it is
 * free, else the free seat the big blind reaches first; never the small blind's or the button's, nor a
 * seat between them, while any other seat is free. Without a button record: a seat drawn at random.
 */
export function worstFreeSeat(table: SeatingTable, random: RandomSource): number | null {
  const free = freeSeats(table);
  if (free.length === 0) return null;
  const last = table.lastButtonHand;
  if (last === null) return free[randomBelow(random, free.length)]!;
  const behind = behindTheButton(table);
  const order = clockwiseFrom(last.bigBlind, table.seats.length).filter((s) => table.seats[s] === null);
  return order.find((s) => !behind.has(s)) ?? order.find((s) => s !== last.bigBlind) ?? order[0]!;
}

function withSeat(table: SeatingTable, seat: number, player: PlayerId | null): SeatingTable {
  return { ...table, seats: table.seats.map((p, s) => (s === seat ? player : p)) };
}

/** The player moved from a long table: the one who is big blind next (TDA), drawn at random without a button record. */
function seatToMove(table: SeatingTable, random: RandomSource): number {
  const next = nextBigBlindSeat(table);
  if (next !== null) return next;
  const taken = table.seats.flatMap((p, s) => (p === null ? [] : [s]));
  return taken[randomBelow(random, taken.length)]!;
}

/**
 * The initial draw: the players in random order over as few tables as hold them (ids 1, 2, …),
 * balanced within one, each in a seat drawn at random.
 */
export function drawSeats(players: readonly PlayerId[], seats: number, random: RandomSource): SeatingTable[] {
  const order = shuffleInPlace([...players], random);
  const count = tablesNeeded(order.length, seats);
  return Array.from({ length: count }, (_, t) => {
    const mine = order.filter((_, i) => i % count === t);
    const chosen = shuffleInPlace(
      Array.from({ length: seats }, (_, s) => s),
      random,
    ).slice(0, mine.length);
    const row: (PlayerId | null)[] = Array.from({ length: seats }, () => null);
    chosen.forEach((seat, i) => (row[seat] = mine[i]!));
    return { id: t + 1, seats: row, lastButtonHand: null };
  });
}

/** A free seat drawn at random among the shortest tables' (with free seats), or null when every table is full. */
function drawFreeSeat(
  tables: readonly SeatingTable[],
  random: RandomSource,
): { index: number; seat: number } | null {
  const open = tables.filter((t) => freeSeats(t).length > 0);
  if (open.length === 0) return null;
  const fewest = Math.min(...open.map(playersAt));
  const choices = tables.flatMap((t, index) =>
    playersAt(t) === fewest ? freeSeats(t).map((seat) => ({ index, seat })) : [],
  );
  return choices[randomBelow(random, choices.length)]!;
}

/**
 * Seats a late registration or a re-entry: a free seat drawn at random at one of the shortest
 * tables; every table full: a new table (the next id), to be filled by balancing (`rebalance`).
 */
export function seatNewPlayer(
  tables: readonly SeatingTable[],
  player: PlayerId,
  seats: number,
  random: RandomSource,
): { tables: SeatingTable[]; placement: Placement } {
  const drawn = drawFreeSeat(tables, random);
  if (drawn === null) {
    const id = Math.max(0, ...tables.map((t) => t.id)) + 1;
    const seat = randomBelow(random, seats);
    const row: (PlayerId | null)[] = Array.from({ length: seats }, (_, s) => (s === seat ? player : null));
    const table: SeatingTable = { id, seats: row, lastButtonHand: null };
    return { tables: [...tables, table], placement: placement(table, player, seat) };
  }
  const table = tables[drawn.index]!;
  const next = tables.map((t, i) => (i === drawn.index ? withSeat(t, drawn.seat, player) : t));
  return { tables: next, placement: placement(table, player, drawn.seat) };
}

/** Which tables may give up players now: those between hands. Absent = all. */
export type IdleTables = ReadonlySet<number> | undefined;

const isIdle = (idle: IdleTables, id: number): boolean => idle === undefined || idle.has(id);

/**
 * After a hand (or a hand-for-hand round): the final table when every player left fits at one
 * (redrawn at random once every table is between hands); else tables broken, fewest players first
 * (ties: the highest id), while fewer tables would hold everybody, their players drawn at random into
 * the free seats of the shortest tables; then balancing, one player at a time from a longest table
 * that is between hands to a shortest table, until no table has two players more than another.
 * Tables still dealing a hand are left for the call after their hand.
 */
export function rebalance(
  tables: readonly SeatingTable[],
  seats: number,
  random: RandomSource,
  idle?: IdleTables,
): Rebalanced {
  const players = totalPlayers(tables);
  if (tables.length > 1 && players <= seats) {
    if (!tables.every((t) => isIdle(idle, t.id))) return { tables, moves: [], broken: [], finalTable: false };
    return drawFinalTable(tables, seats, random);
  }
  let current = [...tables];
  const moves: Move[] = [];
  const broken: number[] = [];
  while (current.length > tablesNeeded(players, seats)) {
    const fewest = Math.min(...current.map(playersAt));
    const victim = current.filter((t) => playersAt(t) === fewest).reduce((a, b) => (b.id > a.id ? b : a));
    if (!isIdle(idle, victim.id)) break;
    current = current.filter((t) => t !== victim);
    broken.push(victim.id);
    const leaving = shuffleInPlace(
      victim.seats.flatMap((p, seat) => (p === null ? [] : [{ player: p, seat }])),
      random,
    );
    for (const { player, seat } of leaving) {
      const drawn = drawFreeSeat(current, random)!;
      const target = current[drawn.index]!;
      moves.push({ from: { table: victim.id, seat }, to: placement(target, player, drawn.seat) });
      current[drawn.index] = withSeat(target, drawn.seat, player);
    }
  }
  for (;;) {
    const counts = current.map(playersAt);
    const most = Math.max(...counts);
    const least = Math.min(...counts);
    if (most - least <= 1) break;
    const fromIndex = current.findIndex((t, i) => counts[i] === most && isIdle(idle, t.id));
    if (fromIndex < 0) break;
    const toIndex = counts.indexOf(least);
    const from = current[fromIndex]!;
    const to = current[toIndex]!;
    const fromSeat = seatToMove(from, random);
    const toSeat = worstFreeSeat(to, random)!;
    const player = from.seats[fromSeat]!;
    moves.push({ from: { table: from.id, seat: fromSeat }, to: placement(to, player, toSeat) });
    current[fromIndex] = withSeat(from, fromSeat, null);
    current[toIndex] = withSeat(to, toSeat, player);
  }
  return { tables: current, moves, broken, finalTable: false };
}

/** The final table: every player left drawn at random into a fresh table (the lowest id kept); its button is drawn by the table. */
function drawFinalTable(tables: readonly SeatingTable[], seats: number, random: RandomSource): Rebalanced {
  const id = Math.min(...tables.map((t) => t.id));
  const sitting = tables.flatMap((t) =>
    t.seats.flatMap((p, seat) => (p === null ? [] : [{ player: p, table: t.id, seat }])),
  );
  const [final] = drawSeats(
    sitting.map((s) => s.player),
    seats,
    random,
  );
  const table: SeatingTable = { ...final!, id };
  const moves = sitting.map((s) => {
    const seat = table.seats.indexOf(s.player);
    return {
      from: { table: s.table, seat: s.seat },
      to: { player: s.player, table: id, seat, dealtIn: 'now' as const },
    };
  });
  return {
    tables: [table],
    moves,
    broken: tables.filter((t) => t.id !== id).map((t) => t.id),
    finalTable: true,
  };
}

/** Removes eliminated players from their seats. */
export function removePlayers(tables: readonly SeatingTable[], out: ReadonlySet<PlayerId>): SeatingTable[] {
  return tables.map((t) => ({ ...t, seats: t.seats.map((p) => (p !== null && out.has(p) ? null : p)) }));
}
