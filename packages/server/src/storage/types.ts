/**
 * The room's storage, split by concern so that each part can be implemented (on PostgreSQL, or owned
 * by the process that runs a table) one at a time; every implementation of a part passes that part's
 * contract suite (packages/server/test/storage-contract-*.ts):
 *
 * - {@link AccountStore} (./account-store.ts): users and sessions;
 * - {@link Ledger} (./ledger.ts): balances, the cashier, buy-ins and cash-outs, the audit;
 * - {@link HandJournal} (./hand-journal.ts): each table's hands in progress, their settlement and
 *   cancellation, crash recovery of given tables;
 * - {@link HandHistories} (./hand-histories.ts): the settled hands' histories, fetched by a player;
 * - {@link StaffAudit} (./staff-audit.ts): the staff's actions, append-only and hash-chained.
 * - {@link TournamentStore} (./tournament-store.ts): each tournament's last checkpoint;
 * - {@link PlayerNotes} (./player-notes.ts): each player's notes and colour tags on other players.
 *
 * `Storage` is their composition, with the schema's life cycle: what the server, the storage thread
 * (./thread.ts) and `felt admin` use. The embedded SQLite implementation is ./sql-storage.ts on
 * ./sqlite.ts.
 */
import type { AccountStore } from './account-store.js';
import type { HandHistories } from './hand-histories.js';
import type { HandJournal } from './hand-journal.js';
import type { Ledger, LedgerLookups } from './ledger.js';
import type { StaffAudit } from './staff-audit.js';
import type { TournamentStore } from './tournament-store.js';
import type { PlayerNotes } from './player-notes.js';

export * from './common.js';
export * from './account-store.js';
export * from './ledger.js';
export * from './hand-journal.js';
export * from './hand-histories.js';
export * from './staff-audit.js';
export * from './tournament-store.js';
export * from './player-notes.js';

/**
 * The storage of the room: the five parts over one database. Calls may be made concurrently; each
 * method is one atomic SQL transaction (all or nothing) and is durable when its promise resolves, but
 * `recoverTables`, which is one transaction per hand and per seat.
 *
 * Life cycle (server.ts): `openSqliteStorage(...)` → `migrate()` → `recoverTables(tablesInPlay())` → …
 * → `close()`.
 */
export interface Storage
  extends
    AccountStore,
    Ledger,
    LedgerLookups,
    HandJournal,
    HandHistories,
    StaffAudit,
    TournamentStore,
    PlayerNotes {
  /** Creates or upgrades the schema: ordered migrations recorded in a migrations table; idempotent. */
  migrate(): Promise<void>;
  /** Flushes and closes; the object is unusable afterwards. Idempotent. */
  close(): Promise<void>;
}

/** Options for opening the SQLite implementation. */
export interface SqliteStorageOptions {
  /**
   * The directory holding the database file `felt.db` (created if missing); default `./data`.
   * Ignored when `file` or `memory` is given.
   */
  readonly dataDir?: string;
  /** An explicit database file path. */
  readonly file?: string;
  /** An in-memory database (tests). */
  readonly memory?: boolean;
  /**
   * `full` (default): every commit is fsynced before the call resolves — an accepted action survives a
   * power cut. `normal`: survives a process crash (SIGKILL) but an OS crash may lose the last commits.
   */
  readonly synchronous?: 'full' | 'normal';
  /** The clock (ms since the epoch); default `Date.now`. */
  readonly clock?: () => number;
  /**
   * The least time between the starts of two write batches (group commits), in ms; default 0 (each
   * turn of the event loop). What arrives meanwhile waits and commits together: under load, fewer and
   * larger commits for at most this much more latency; when idle, a write commits at once.
   */
  readonly commitGapMs?: number;
}
