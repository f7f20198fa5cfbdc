/**
 * The PostgreSQL driver (node-postgres): the portable query layer (./sql.ts) on a pool of connections,
 * in the process that calls it — a PostgreSQL call is a network round trip, not work that holds up the
 * event loop, so it needs no thread of its own (./thread.ts is SQLite's).
 *
 * Each transaction runs on one connection of the pool, at PostgreSQL's default READ COMMITTED; many run
 * at once. What makes that safe is the SQL (./sql-ledger.ts, ./sql-hand-journal.ts): every row a
 * transaction reads in order to change it is locked (`FOR UPDATE`, or an `UPDATE … RETURNING` that reads
 * it back), rows that two may create at once are upserts, and locks are taken in one order. A deadlock
 * or serialisation failure the database still reports rolls the transaction back and runs it again.
 * A read-only transaction (the audit) is one REPEATABLE READ snapshot.
 *
 * Durability: a transaction resolves after its COMMIT returned, which with PostgreSQL's default
 * `synchronous_commit = on` is after its WAL record was flushed.
 */
import pg from 'pg';
import type { SqlDriver, SqlExecutor, SqlRow, SqlValue } from './sql.js';

export interface PostgresDriverOptions {
  /**
   * `postgres://user:password@host:port/database` (the URL node-postgres reads); a schema of its own
   * with `?options=-c%20search_path%3DNAME`.
   */
  readonly url: string;
  /** Connections at most; default {@link DEFAULT_POOL_SIZE}. */
  readonly poolSize?: number;
  /**
   * The session's `idle_in_transaction_session_timeout` (ms; none by default): a process paused in the
   * middle of a transaction loses it, and the row locks it held, after this long — so that it cannot
   * block another process taking its tables over (../cluster/).
   */
  readonly idleInTransactionTimeoutMs?: number;
  /** The session's `lock_timeout` (ms; none by default): a statement that waits longer for a lock fails. */
  readonly lockTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;

/** Tries of a transaction that PostgreSQL aborted as a deadlock victim or a serialisation failure. */
const MAX_TRIES = 5;
const RETRIED = new Set(['40001', '40P01']);

/** `postgres://` or `postgresql://`: a database URL rather than a data directory. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(?:ql)?:\/\//.test(text);
}

/**
 * BIGINT columns, COUNT and SUM come back as text (they may exceed 53 bits): read them as numbers, which
 * every amount is (cents), and refuse one that is not a safe integer rather than round it.
 */
function safeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${text} is not a safe integer`);
  return value;
}

const { builtins } = pg.types;
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid, format) =>
    oid === builtins.INT8 || oid === builtins.NUMERIC
      ? safeInteger
      : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

/** A statement as node-postgres runs it: `?` numbered as `$1, $2, …`, prepared once per connection. */
interface Prepared {
  readonly name: string;
  readonly text: string;
}

/** `?` outside quoted text and identifiers becomes `$n`. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  let quote: string | null = null;
  let out = '';
  for (const ch of sql) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else out += ch === '?' ? `$${++n}` : ch;
  }
  return out;
}

const isRetried = (error: unknown): boolean =>
  error instanceof Error && RETRIED.has(String((error as { code?: unknown }).code));

export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  /** The SQL texts the parts use, a fixed set: each is prepared on a connection the first time it runs there. */
  private readonly prepared = new Map<string, Prepared>();
  private closing: Promise<void> | undefined;
  private readonly url: string;
  /** The connection that holds {@link holdLock}'s lock. */
  private lockHolder: pg.Client | undefined;

  constructor(options: PostgresDriverOptions) {
    this.url = options.url;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      application_name: 'felt',
      types: TYPES,
      ...(options.idleInTransactionTimeoutMs === undefined
        ? {}
        : { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs }),
      ...(options.lockTimeoutMs === undefined ? {} : { lock_timeout: options.lockTimeoutMs }),
    });
    // A connection that breaks while idle is dropped by the pool and replaced on the next call; without
    // a listener the error would end the process.
    this.pool.on('error', () => {});
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.runOn(this.pool, sql, params);
  }

  get(sql: string, params?: readonly SqlValue[]): Promise<SqlRow | undefined> {
    return this.getOn(this.pool, sql, params);
  }

  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    return this.allOn(this.pool, sql, params);
  }

  async exec(script: string): Promise<void> {
    await this.pool.query(script);
  }

  async transaction<T>(
    fn: (tx: SqlExecutor) => Promise<T>,
    options?: { readonly readOnly?: boolean },
  ): Promise<T> {
    const begin = options?.readOnly === true ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
    for (let tries = 1; ; tries++) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      // The server may end the session while the transaction waits between statements (its
      // idle_in_transaction_session_timeout, a paused process): the pool listens only to idle
      // connections, and an error nobody listens to would end the process.
      const onError = (error: Error): void => {
        broken = error;
      };
      client.on('error', onError);
      try {
        await client.query(begin);
        const value = await fn(this.executorOn(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
        if (tries < MAX_TRIES && isRetried(error)) continue;
        throw error;
      } finally {
        client.off('error', onError);
        // A connection whose rollback failed, or that broke, is in an unknown state: closed, not reused.
        client.release(broken);
      }
    }
  }

  /**
   * Takes the advisory lock `name` for this session (a connection of its own, outside the pool) and holds
   * it until {@link close}; false, taking nothing, when another session holds it.
   */
  async holdLock(name: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'felt' });
    client.on('error', () => {});
    await client.connect();
    const { rows } = await client.query<{ held: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS held',
      [name],
    );
    if (rows[0]?.held !== true) {
      await client.end();
      return false;
    }
    this.lockHolder = client;
    return true;
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([this.pool.end(), this.lockHolder?.end()]).then(() => undefined);
    return this.closing;
  }

  private executorOn(client: pg.PoolClient): SqlExecutor {
    return {
      dialect: this.dialect,
      run: (sql, params) => this.runOn(client, sql, params),
      get: (sql, params) => this.getOn(client, sql, params),
      all: (sql, params) => this.allOn(client, sql, params),
      exec: async (script) => {
        await client.query(script);
      },
    };
  }

  private query(on: pg.Pool | pg.PoolClient, sql: string, params: readonly SqlValue[] = []) {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = { name: `felt_${this.prepared.size}`, text: numberPlaceholders(sql) };
      this.prepared.set(sql, statement);
    }
    return on.query<SqlRow>({ name: statement.name, text: statement.text, values: [...params] });
  }

  private async runOn(on: pg.Pool | pg.PoolClient, sql: string, params?: readonly SqlValue[]) {
    return (await this.query(on, sql, params)).rowCount ?? 0;
  }

  private async getOn(on: pg.Pool | pg.PoolClient, sql: string, params?: readonly SqlValue[]) {
    return (await this.query(on, sql, params)).rows[0];
  }

  private async allOn(on: pg.Pool | pg.PoolClient, sql: string, params?: readonly SqlValue[]) {
    return (await this.query(on, sql, params)).rows;
  }
}
