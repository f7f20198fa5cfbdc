/**
 * Each tournament's checkpoint (../tournament/checkpoint.ts), stored as JSON text after every step so
 * that a restart goes on from it. The storage does not read it; the tournament's money is in the ledger.
 */
export interface StoredTournament {
  readonly id: string;
  /** The checkpoint, as JSON text. */
  readonly checkpoint: string;
}

export interface TournamentStore {
  /** Stores a tournament's checkpoint, replacing the last one; `over` once it is finished or cancelled. */
  saveTournament(id: string, checkpoint: string, over: boolean): Promise<void>;
  /** The tournaments not over, with their last checkpoints, by id. */
  tournamentsInPlay(): Promise<StoredTournament[]>;
  /**
   * The ids of the tournaments not over, by id, without their checkpoints: what a room on several
   * processes looks at every second (a large run's checkpoint is read only by the member taking it).
   */
  tournamentIdsInPlay(): Promise<string[]>;
  /**
   * The ids of the `count` tournaments that ended last (finished or cancelled), the last ended first: a
   * room on several processes lists them, whichever process directed them (reading the checkpoint of
   * one it has not read yet).
   */
  endedTournamentIds(count: number): Promise<string[]>;
  /** One tournament's last checkpoint, in play or over (every one is kept); null when none is stored. */
  storedTournament(id: string): Promise<StoredTournament | null>;
}
