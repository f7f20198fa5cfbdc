/**
 * What a tournament stores after every step (a hand finished, an entry, the start): enough to go on
 * after a crash from where it stood. The stacks are those of each table's last finished hand, so a hand
 * in progress at the crash is cancelled by construction (chips back to the stacks they came from); the
 * level clock is stored paused, so the time the room was down is not counted. Plain JSON.
 */
import type { StoredTournament, TournamentStore } from '../storage/tournament-store.js';
import type { PlayerRef } from '../table/types.js';
import type { LevelClock } from './clock.js';
import type { DealKind } from './deal.js';
import type { EntryPrice } from './director.js';
import type { Elimination } from './places.js';
import type { RotationState } from './rotation.js';
import type { SeatingTable } from './seating.js';
import type { GameSpec, TournamentDefinition } from './structure.js';

export interface TournamentCheckpoint {
  readonly id: string;
  readonly def: TournamentDefinition;
  readonly phase: 'registering' | 'running' | 'finished' | 'cancelled';
  readonly entrants: readonly {
    readonly ref: PlayerRef;
    readonly stack: number;
    readonly out: boolean;
    // The purchases: absent from checkpoints stored before rebuys, add-ons and re-entries were sold.
    /** Chips bought during his hand that the crash cancelled: his when the tables open again. */
    readonly pending?: number;
    readonly rebuys?: number;
    readonly addOns?: number;
    readonly reEntries?: number;
    /** The price of each purchase, the entry first (cents to the pool and to the house). */
    readonly paid?: readonly EntryPrice[];
  }[];
  readonly results: readonly {
    readonly player: string;
    readonly place: number;
    readonly tied: number;
    readonly account: number;
    readonly name: string;
    readonly prize: number;
  }[];
  readonly prizes: readonly number[];
  readonly seating: readonly SeatingTable[];
  /** The game each open table deals and where it stands in the rotation. */
  readonly tables: readonly {
    readonly no: number;
    readonly game: GameSpec;
    readonly rotation: RotationState;
    readonly generation: number;
  }[];
  /** Paused. */
  readonly clock: LevelClock | null;
  /**
   * The deal open at the final table (absent from checkpoints stored before deals were kept): its
   * players' answers, its amounts once worked out, and the time it had left to be answered then (the
   * room's time down is not counted, as for the level clock); `remainingMs` is null while the final
   * table was finishing its hand.
   */
  readonly deal?: DealCheckpoint | null;
  /** A hand-for-hand round in progress: the tables still dealing it, who is out so far. */
  readonly round: {
    readonly pending: readonly number[];
    readonly out: readonly Elimination[];
    readonly before: number;
  } | null;
  readonly counts: {
    readonly levels: number;
    readonly moves: number;
    readonly handForHandRounds: number;
    readonly finalTable: boolean;
    readonly gameChanges: number;
  };
}

/** The open deal as stored (./deal.ts `Deal`, its lapse as the time it has left). */
export interface DealCheckpoint {
  readonly kind: DealKind;
  readonly proposer: number;
  readonly players: readonly number[];
  readonly amounts: readonly number[] | null;
  readonly accepted: readonly number[];
  readonly remainingMs: number | null;
}

/** A director's `save` into the room's tournament store (a finished or cancelled one is over). */
export function storeCheckpoints(
  store: Pick<TournamentStore, 'saveTournament'>,
): (checkpoint: TournamentCheckpoint) => Promise<void> {
  return (c) =>
    store.saveTournament(c.id, JSON.stringify(c), c.phase === 'finished' || c.phase === 'cancelled');
}

/** The checkpoint a stored tournament holds (written by {@link storeCheckpoints}). */
export const storedCheckpoint = (stored: StoredTournament): TournamentCheckpoint =>
  JSON.parse(stored.checkpoint) as TournamentCheckpoint;

/** A run stored still to be played on: open for registration, or running. */
export const stillInPlay = (checkpoint: TournamentCheckpoint): boolean =>
  checkpoint.phase === 'registering' || checkpoint.phase === 'running';
