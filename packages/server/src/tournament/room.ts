/**
 * The room's tournaments: the table file's entries opened as runs (a sit & go always has one run open
 * for registration, the next opened as one starts; a scheduled entry has its next run open until that
 * run's start), each run played by a `TournamentDirector` with the ledger's money (./money.ts), the
 * cryptographic random source, the room's clock and its checkpoints in the tournament store. On start
 * the runs the store holds in play are resumed from their checkpoints first. The most recent ended runs
 * stay in memory (listed, their results at hand); an older one is read back from the store when asked.
 *
 * The room also tells the entrants what happens to them (`TournamentNotice`s, sent by the transport
 * to the account's connections): the table they are given (at the start, when moved, when their table
 * is opened again), their place and prize, the tournament's end. Their tables are reachable by id
 * (`table`), so the table ops (`table-open`, `act`) work at them as at cash tables.
 */
import type { TournamentEndMessage, TournamentOutMessage, TournamentSeatMessage } from '@felt/protocol';
import type { Storage } from '../storage/types.js';
import type { StoredTournament } from '../storage/tournament-store.js';
import type { Logger } from '../log.js';
import { cryptoRandomSource } from '../table/random.js';
import type { AccountId, ClockConfig, PlayerRef, Table, TableClock, TableTimer } from '../table/types.js';
import { stillInPlay, storedCheckpoint, storeCheckpoints, type TournamentCheckpoint } from './checkpoint.js';
import { TournamentDirector, type DirectorDeps, type SeatFollower } from './director.js';
import { ledgerMoney } from './money.js';
import { runsDue, type TournamentEntry, type TournamentRun } from './schedule.js';
import type { TournamentFile } from './table-file.js';
import { placeOf } from './views.js';

export type TournamentNotice = TournamentSeatMessage | TournamentOutMessage | TournamentEndMessage;

export interface TournamentRoomOptions {
  readonly storage: Pick<Storage, 'post' | 'saveTournament' | 'tournamentsInPlay' | 'storedTournament'>;
  readonly clock: TableClock;
  readonly entries: readonly TournamentEntry[];
  /**
   * The table file again, read at every poll: entries added since (`felt admin tournament create`) are
   * opened, and the runs it lists as cancelled are cancelled (every buy-in and fee back).
   */
  readonly reload?: () => Promise<TournamentFile>;
  /** The tournament tables' clocks where the entry gives none (default: the tables' defaults). */
  readonly tableClocks?: Partial<ClockConfig>;
  /** How often the next scheduled runs are looked for, ms (default 10 s). */
  readonly pollMs?: number;
  /**
   * The one run this room plays (a room on several processes leases each run on its own,
   * ../cluster/tournaments.ts): it resumes that run alone and opens none. Default: every run.
   */
  readonly run?: string;
  /** Ended (finished or cancelled) runs kept in memory, the most recent (default {@link ENDED_RUNS_KEPT}). */
  readonly endedKept?: number;
  readonly logger: Logger;
}

/**
 * Ended runs kept in memory, listed and answered at once: a busy room's sit & goes and recurring runs
 * end every few minutes, and each holds its entrants and results. Older ones are in the store.
 */
export const ENDED_RUNS_KEPT = 50;

/** One run the room knows of: playing, open for registration, or one of the last ended. */
interface Run {
  readonly director: TournamentDirector;
  /** The table file's entry it is a run of, or null (a run resumed whose entry is gone). */
  readonly entry: string | null;
}

/**
 * The checkpoint of a run just opened, nobody registered yet: a room on several processes stores it so
 * that the member taking the run's lease plays it (../cluster/tournament-schedule.ts).
 */
export async function openingCheckpoint(
  run: TournamentRun,
  clock: TableClock,
): Promise<TournamentCheckpoint> {
  const director = new TournamentDirector(run.id, run.definition, {
    clock,
    random: cryptoRandomSource(),
    tableRandom: cryptoRandomSource,
  });
  await director.close();
  return director.checkpoint();
}

export class TournamentRoom {
  readonly #options: TournamentRoomOptions;
  readonly #runs = new Map<string, Run>();
  /** The ids of the ended runs in `#runs`, the first ended first. */
  readonly #endedIds: string[] = [];
  #entries: readonly TournamentEntry[];
  /** Runs the table file cancels: never opened again (after a restart a scheduled one would be). */
  #cancelled: ReadonlySet<string> = new Set();
  readonly #poll: TableTimer;
  #notify: (account: AccountId, notice: TournamentNotice) => void = () => undefined;
  #closed = false;

  constructor(options: TournamentRoomOptions) {
    this.#options = options;
    this.#entries = options.entries;
    this.#poll = options.clock.timer(() => {
      void this.#refresh().finally(() => {
        if (!this.#closed) this.#poll.start(this.#options.pollMs ?? 10_000);
      });
    });
  }

  /** Where the notices to entrants go (the transport sends them to the account's connections). */
  onNotice(sink: (account: AccountId, notice: TournamentNotice) => void): void {
    this.#notify = sink;
  }

  /** Resumes the runs stored in play, then opens the table file's runs due now. */
  async start(): Promise<void> {
    for (const stored of await this.#inPlay()) {
      const checkpoint = storedCheckpoint(stored);
      const entry = this.#entries.find((e) => checkpoint.id.startsWith(`${e.id}@`));
      const director = await TournamentDirector.resume(
        checkpoint,
        this.#deps(checkpoint.id, checkpoint.def, entry),
      );
      this.#add(checkpoint.id, director, entry?.id ?? null);
      this.#options.logger.info(
        { tournamentId: checkpoint.id, phase: checkpoint.phase },
        'tournament resumed',
      );
    }
    await this.#refresh();
    this.#poll.start(this.#options.pollMs ?? 10_000);
  }

  /** The runs stored in play that this room plays. */
  async #inPlay(): Promise<StoredTournament[]> {
    const { storage, run } = this.#options;
    if (run === undefined) return storage.tournamentsInPlay();
    const stored = await storage.storedTournament(run);
    return stored !== null && stillInPlay(storedCheckpoint(stored)) ? [stored] : [];
  }

  /** Reads the table file again (a broken file is logged and the last good one kept), then acts on it. */
  async #refresh(): Promise<void> {
    const reload = this.#options.reload;
    if (reload !== undefined) {
      try {
        const file = await reload();
        this.#entries = file.entries;
        this.#cancelled = new Set(file.cancelled);
        for (const id of file.cancelled) {
          const director = this.#runs.get(id)?.director;
          if (director !== undefined && (director.phase === 'registering' || director.phase === 'running')) {
            await director.cancel();
            this.#options.logger.info(
              { tournamentId: id },
              'tournament cancelled, every buy-in and fee back',
            );
          }
        }
      } catch (error) {
        this.#options.logger.error({ err: error }, 'tournaments: the table file cannot be read');
      }
    }
    this.#openRuns();
  }

  /** A run in memory by id: open, playing, or one of the last ended. */
  get(id: string): TournamentDirector | undefined {
    return this.#runs.get(id)?.director;
  }

  /**
   * A run by id: one in memory, else an ended one read back from the store (its entrants, results and
   * prizes, as it ended; nothing of it runs); undefined when neither has it.
   */
  async find(id: string): Promise<TournamentDirector | undefined> {
    const known = this.get(id);
    if (known !== undefined) return known;
    const stored = await this.#options.storage.storedTournament(id);
    if (stored === null) return undefined;
    const checkpoint = storedCheckpoint(stored);
    if (checkpoint.phase !== 'finished' && checkpoint.phase !== 'cancelled') return undefined;
    return TournamentDirector.resume(checkpoint, {
      clock: this.#options.clock,
      random: cryptoRandomSource(),
      tableRandom: cryptoRandomSource,
    });
  }

  /** Every run the room knows of, in the order they were opened. */
  all(): TournamentDirector[] {
    return [...this.#runs.values()].map((r) => r.director);
  }

  /** A tournament table by id (the table ops reach tournament tables through this). */
  table(id: string): Table | undefined {
    for (const { director } of this.#runs.values()) {
      if (director.phase !== 'running') continue;
      const found = director.tables().find((t) => t.id === id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Registers `player`; a sit & go that fills up starts, and the entry's next run opens. */
  async register(id: string, player: PlayerRef): ReturnType<TournamentDirector['register']> {
    const director = await this.find(id);
    if (director === undefined) throw new Error(`no tournament ${id}`);
    const result = await director.register(player);
    if (result.ok) this.#openRuns();
    return result;
  }

  /**
   * Stops the tournaments in this process (the room stopping): timers stopped, tables closed, nothing
   * stored — each goes on from its last checkpoint when the room starts again.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#poll.stop();
    await Promise.all(this.all().map((d) => d.close()));
  }

  #add(id: string, director: TournamentDirector, entry: string | null): void {
    this.#runs.set(id, { director, entry });
    void director.done.then(() => {
      this.#ended(director);
    });
  }

  #ended(director: TournamentDirector): void {
    if (this.#closed) return;
    this.#endedIds.push(director.id);
    while (this.#endedIds.length > (this.#options.endedKept ?? ENDED_RUNS_KEPT))
      this.#runs.delete(this.#endedIds.shift()!);
    const state = director.phase === 'cancelled' ? 'cancelled' : 'finished';
    const results = director.results().map(placeOf);
    for (const e of director.standings())
      this.#notify(e.ref.account, { op: 'tournament-end', tournamentId: director.id, state, results });
    this.#openRuns();
  }

  /** Opens each entry's run that should be open now and is not: one sit & go, the next scheduled run. */
  #openRuns(): void {
    if (this.#closed || this.#options.run !== undefined) return;
    const due = runsDue(this.#entries, this.#options.clock.now(), {
      registering: (entryId) =>
        [...this.#runs.values()].some((r) => r.entry === entryId && r.director.phase === 'registering'),
      known: (runId) => this.#runs.has(runId) || this.#cancelled.has(runId),
    });
    for (const run of due) {
      const entry = this.#entries.find((e) => e.id === run.entry);
      if (entry !== undefined) this.#open(entry, run);
    }
  }

  #open(entry: TournamentEntry, run: TournamentRun): void {
    const director = new TournamentDirector(
      run.id,
      run.definition,
      this.#deps(run.id, run.definition, entry),
    );
    this.#add(run.id, director, entry.id);
    this.#options.logger.info({ tournamentId: run.id }, 'tournament open for registration');
  }

  #deps(id: string, def: TournamentDirector['def'], entry: TournamentEntry | undefined): DirectorDeps {
    const { storage, clock, logger } = this.#options;
    const tableClocks = entry?.clocks ?? this.#options.tableClocks;
    return {
      clock,
      random: cryptoRandomSource(),
      tableRandom: cryptoRandomSource,
      ...(tableClocks !== undefined ? { tableClocks } : {}),
      money: ledgerMoney(storage, id, def.money),
      follower: this.#follower(id),
      save: storeCheckpoints(storage),
      placed: (result) => {
        this.#notify(result.account, { op: 'tournament-out', tournamentId: id, result: placeOf(result) });
      },
      onError: (error) => {
        logger.error({ tournamentId: id, err: error }, 'tournament failed');
      },
    };
  }

  /** Tells each entrant the table he is given; `moved` when he had a seat at another of its tables. */
  #follower(id: string): SeatFollower {
    const at = new Map<AccountId, string>();
    return {
      seated: (player, table, seat) => {
        const before = at.get(player.account);
        at.set(player.account, table.id);
        this.#notify(player.account, {
          op: 'tournament-seat',
          tournamentId: id,
          tableId: table.id,
          seat,
          moved: before !== undefined && before !== table.id,
        });
      },
      unseated: () => undefined,
    };
  }
}
