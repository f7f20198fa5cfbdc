/**
 * The SQLite driver (better-sqlite3): one connection, WAL journal, prepared statements cached by their
 * SQL text, every call serialised through one queue so that an asynchronous transaction never
 * interleaves with another caller's statements.
 *
 * Group commit: write transactions waiting in the queue together (typically: the actions of many
 * tables that arrived in one turn of the event loop) run in ONE SQLite transaction, each inside its own
 * savepoint — a transaction that fails is rolled back to its savepoint and leaves the others alone — and
 * one COMMIT makes them all durable at once (one fsync instead of one per transaction). Nobody's promise
 * resolves before that COMMIT, so "resolved" still means "durable"; only the cost is shared. The queue
 * is worked from `setImmediate`, after the event loop has read every socket that was ready, so that the
 * batch gathers what arrived meanwhile — and, with a commit gap, no sooner than that gap after the last
 * batch began: a commit costs about as much CPU (its sync) whether it holds one action or sixteen, so a
 * busy room commits a few hundred times a second instead of once or twice per action; an idle one
 * commits at once.
 *
 * Durability: `journal_mode = WAL`, and by default ('full') SQLite syncs the WAL file at every COMMIT,
 * before the call resolves, so an action the table announces survives a process kill AND a power cut.
 * 'normal' (an option) only survives a process kill: a cheaper choice for benchmarks on a machine one
 * trusts; see docs/storage.md. The sync holds up the thread the driver runs on, which in the room is the
 * storage thread of its own (./thread.ts), not the event loop that serves the sockets; meanwhile the
 * next calls gather in its queue and commit together.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlDriver, SqlExecutor, SqlRow, SqlValue } from './sql.js';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer.js';
import { OpenErrorCode, StorageOpenError } from './open-errors.js';

export interface SqliteDriverOptions {
  /** A file path, or `:memory:`. */
  readonly file: string;
  readonly synchronous?: 'full' | 'normal';
  /** See {@link SqliteStorageOptions.commitGapMs}; default 0. */
  readonly commitGapMs?: number;
}

/** SQLite's codes for a file that is damaged or not a database. */
const DAMAGED = new Set([
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT_INDEX',
  'SQLITE_CORRUPT_SEQUENCE',
]);

/** What `quick_check` reports at most, in the refusal's words. */
const PROBLEMS_SHOWN = 3;

/**
 * Opens the database and checks it (`PRAGMA quick_check`: every page's structure, no index contents)
 * before anything runs on it: a damaged file is refused rather than served — a room that starts on it
 * fails at some later write, a hand or a sign-up half done. It reads the whole file once (see
 * docs/storage.md for its cost); `:memory:` has nothing to check.
 */
function openChecked(file: string): Database.Database {
  let db: Database.Database | null = null;
  const damaged = (why: string): StorageOpenError =>
    new StorageOpenError(
      OpenErrorCode.CORRUPT_DATABASE,
      `the database ${file} is damaged (${why}); restore it from a backup`,
    );
  try {
    db = new Database(file);
    if (file === ':memory:') return db;
    const problems = (db.pragma(`quick_check(${PROBLEMS_SHOWN})`) as { quick_check: string }[]).map(
      (row) => row.quick_check,
    );
    if (problems.length !== 1 || problems[0] !== 'ok') throw damaged(problems.join('; '));
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && DAMAGED.has(code)) throw damaged((error as Error).message);
    throw error;
  }
}

/** Write transactions merged into one commit at most. */
const MAX_BATCH = 512;

interface WriteJob {
  readonly kind: 'write';
  readonly fn: (tx: SqlExecutor) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface OtherJob {
  readonly kind: 'other';
  readonly run: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Job = WriteJob | OtherJob;

type Outcome =
  | { readonly job: WriteJob; readonly ok: true; readonly value: unknown }
  | { readonly job: WriteJob; readonly ok: false; readonly error: unknown };

export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly queue: Job[] = [];
  private pumping = false;
  private readonly commitGapMs: number;
  /** When the last write batch began (`performance.now()`). */
  private lastBatchAt = -Infinity;
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly executor: SqlExecutor;
  /** On a WAL file: checkpoints off the event loop (./checkpointer.ts). */
  private readonly checkpointer: Checkpointer | null = null;

  constructor(options: SqliteDriverOptions) {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    this.db = openChecked(options.file);
    this.commitGapMs = options.commitGapMs ?? 0;
    const mode = String(this.db.pragma('journal_mode = WAL', { simple: true })).toLowerCase();
    const synchronous = options.synchronous === 'normal' ? 'NORMAL' : 'FULL';
    this.db.pragma(`synchronous = ${synchronous}`);
    if (mode === 'wal') {
      this.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
      this.checkpointer = new Checkpointer(resolve(options.file), synchronous);
    }
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.executor = {
      dialect: this.dialect,
      run: (sql, params) => Promise.resolve(this.runNow(sql, params)),
      get: (sql, params) => Promise.resolve(this.getNow(sql, params)),
      all: (sql, params) => Promise.resolve(this.allNow(sql, params)),
      exec: (script) => {
        this.db.exec(script);
        return Promise.resolve();
      },
    };
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.enqueue(() => Promise.resolve(this.runNow(sql, params)));
  }

  get(sql: string, params?: readonly SqlValue[]): Promise<SqlRow | undefined> {
    return this.enqueue(() => Promise.resolve(this.getNow(sql, params)));
  }

  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    return this.enqueue(() => Promise.resolve(this.allNow(sql, params)));
  }

  exec(script: string): Promise<void> {
    return this.enqueue(() => this.executor.exec(script));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: { readonly readOnly?: boolean }): Promise<T> {
    if (options?.readOnly === true) {
      return this.enqueue(async () => {
        this.statement('BEGIN').run();
        try {
          const value = await fn(this.executor);
          this.statement('COMMIT').run();
          return value;
        } catch (error) {
          if (this.db.inTransaction) this.statement('ROLLBACK').run();
          throw error;
        }
      });
    }
    return new Promise<T>((resolve, reject) => {
      this.push({ kind: 'write', fn, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  close(): Promise<void> {
    this.closing ??= this.enqueue(async () => {
      this.closed = true;
      this.statements.clear();
      await this.checkpointer?.close();
      this.db.close();
    });
    return this.closing;
  }

  private enqueue<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.push({ kind: 'other', run, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private push(job: Job): void {
    this.queue.push(job);
    if (this.pumping) return;
    this.pumping = true;
    const wait = this.lastBatchAt + this.commitGapMs - performance.now();
    if (wait > 0) {
      setTimeout(() => {
        void this.pump();
      }, wait);
    } else {
      setImmediate(() => {
        void this.pump();
      });
    }
  }

  /** Works the queue in order until it is empty. */
  private async pump(): Promise<void> {
    try {
      for (let job = this.queue[0]; job !== undefined; job = this.queue[0]) {
        if (this.closed) {
          this.queue.shift();
          job.reject(new Error('storage is closed'));
        } else if (job.kind === 'write') {
          await this.runBatch();
        } else {
          this.queue.shift();
          try {
            job.resolve(await job.run());
          } catch (error) {
            job.reject(error);
          }
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * The write transactions at the head of the queue (also those queued while it runs), each in a
   * savepoint of one SQLite transaction; their promises settle after the COMMIT.
   */
  private async runBatch(): Promise<void> {
    const outcomes: Outcome[] = [];
    const failAll = (error: unknown, also?: WriteJob): void => {
      for (const outcome of outcomes) outcome.job.reject(error);
      also?.reject(error);
    };
    this.lastBatchAt = performance.now();
    try {
      this.statement('BEGIN IMMEDIATE').run();
    } catch (error) {
      const job = this.queue.shift() as WriteJob;
      job.reject(error);
      return;
    }
    while (outcomes.length < MAX_BATCH) {
      const head = this.queue[0];
      if (head?.kind !== 'write') break;
      this.queue.shift();
      try {
        this.statement('SAVEPOINT felt_tx').run();
        const value = await head.fn(this.executor);
        this.statement('RELEASE felt_tx').run();
        outcomes.push({ job: head, ok: true, value });
      } catch (error) {
        if (!this.db.inTransaction) {
          // SQLite rolled the whole transaction back (I/O error, disk full): nothing of the batch stands.
          failAll(error, head);
          return;
        }
        try {
          this.statement('ROLLBACK TO felt_tx').run();
          this.statement('RELEASE felt_tx').run();
        } catch (rollbackError) {
          try {
            this.statement('ROLLBACK').run();
          } catch {
            // SQLite rolled it back already
          }
          failAll(rollbackError, head);
          return;
        }
        outcomes.push({ job: head, ok: false, error });
      }
    }
    try {
      this.statement('COMMIT').run();
    } catch (error) {
      if (this.db.inTransaction) this.statement('ROLLBACK').run();
      failAll(error);
      return;
    }
    for (const outcome of outcomes) {
      if (outcome.ok) outcome.job.resolve(outcome.value);
      else outcome.job.reject(outcome.error);
    }
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private runNow(sql: string, params: readonly SqlValue[] = []): number {
    return this.statement(sql).run(...params).changes;
  }

  private getNow(sql: string, params: readonly SqlValue[] = []): SqlRow | undefined {
    return this.statement(sql).get(...params) as SqlRow | undefined;
  }

  private allNow(sql: string, params: readonly SqlValue[] = []): SqlRow[] {
    return this.statement(sql).all(...params) as SqlRow[];
  }
}
