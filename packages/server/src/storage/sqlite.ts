/**
 * The SQLite driver (better-sqlite3): one connection, WAL journal, prepared statements cached by their
 * SQL text, every call serialised through one queue so that an asynchronous transaction never
 * interleaves with another caller's statements.
 *
 * Durability: `journal_mode = WAL` with `synchronous = FULL` by default — each commit is fsynced to the
 * WAL before the call resolves, so an action the table announces survives a process kill AND a power cut.
 * `synchronous = NORMAL` (an option) only survives a process kill: a cheaper choice for benchmarks on a
 * machine one trusts; see docs/storage.md.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlDriver, SqlExecutor, SqlRow, SqlValue } from './sql.js';

export interface SqliteDriverOptions {
  /** A file path, or `:memory:`. */
  readonly file: string;
  readonly synchronous?: 'full' | 'normal';
}

export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly executor: SqlExecutor;

  constructor(options: SqliteDriverOptions) {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    this.db = new Database(options.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.executor = {
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
    return this.enqueue(async () => {
      this.statement(options?.readOnly === true ? 'BEGIN' : 'BEGIN IMMEDIATE').run();
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

  close(): Promise<void> {
    this.closing ??= this.enqueue(() => {
      this.closed = true;
      this.statements.clear();
      this.db.close();
      return Promise.resolve();
    });
    return this.closing;
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => {
      if (this.closed) throw new Error('storage is closed');
      return fn();
    });
    this.tail = result.catch(() => undefined);
    return result;
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
