/**
 * The portable query layer: plain SQL with `?` placeholders, run through a small asynchronous driver.
 * The SQL the room writes is the common subset of SQLite and PostgreSQL (`INSERT … ON CONFLICT`,
 * `UPDATE … RETURNING`, `COALESCE`, no vendor functions); the PostgreSQL driver (./postgres.ts) rewrites
 * `?` to `$1, $2, …`. What differs is chosen by the executor's {@link SqlDialect}: the few DDL words
 * (./migrations.ts), the row locks of {@link lockingRead}, the schema lock of the migrations.
 */

/** A value bound to a placeholder or read from a column. Integers fit in 53 bits (cents). */
export type SqlValue = number | string | null;

/** A row as read: column name → value. Read it with the typed accessors below. */
export type SqlRow = Readonly<Record<string, unknown>>;

export type SqlDialect = 'sqlite' | 'postgres';

/** Runs statements; inside a transaction, on that transaction. */
export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** A statement that returns no rows; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** The first row, or undefined. */
  get(sql: string, params?: readonly SqlValue[]): Promise<SqlRow | undefined>;
  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** A script of statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface SqlDriver extends SqlExecutor {
  /**
   * Runs `fn` in one transaction: committed (and durable) when its promise resolves, rolled back when it
   * rejects. Transactions and single statements are serialised: nothing else runs on the connection while
   * one is open. `readOnly`: a snapshot for reading only (the audit), which takes no write lock.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: { readonly readOnly?: boolean }): Promise<T>;
  close(): Promise<void>;
}

/**
 * A read whose rows the transaction goes on to change, by dialect: PostgreSQL locks them (`FOR UPDATE`)
 * so that no concurrent writer changes them before the commit; in SQLite a write transaction already
 * holds the whole database, and the statement stays as it is.
 */
export function lockingRead(sql: string): Readonly<Record<SqlDialect, string>> {
  return { sqlite: sql, postgres: `${sql} FOR UPDATE` };
}

/** A column that must be an integer. */
export function intCol(row: SqlRow, column: string): number {
  const value = row[column];
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new TypeError(`column ${column}: expected an integer, got ${String(value)}`);
  }
  return value;
}

/** A column that must be an integer or NULL (NULL → `fallback`). */
export function intColOr(row: SqlRow, column: string, fallback: number): number {
  return row[column] === null || row[column] === undefined ? fallback : intCol(row, column);
}

/** A column that must be text. */
export function textCol(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`column ${column}: expected text, got ${String(value)}`);
  return value;
}

/** A column that must be text or NULL. */
export function textColOrNull(row: SqlRow, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : textCol(row, column);
}
