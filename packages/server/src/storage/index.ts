/** Storage: the interface (./types.ts), the portable SQL layer, and its SQLite and PostgreSQL drivers. */
import { join } from 'node:path';
import { sqlStorage } from './sql-storage.js';
import { PostgresDriver, type PostgresDriverOptions } from './postgres.js';
import { SqliteDriver } from './sqlite.js';
import type { SqliteStorageOptions, Storage } from './types.js';
import { OpenErrorCode, StorageOpenError } from './open-errors.js';
import { ROOM_LOCK, roomModeGuard, type RoomModeGuard, type RoomModeOptions } from './room-mode.js';

export interface PostgresStorageOptions extends PostgresDriverOptions {
  /** The clock (ms since the epoch); default `Date.now`. */
  readonly clock?: () => number;
}

export * from './types.js';
export { sqlStorage } from './sql-storage.js';
export { SqliteDriver } from './sqlite.js';
export { PostgresDriver, isPostgresUrl, DEFAULT_POOL_SIZE, type PostgresDriverOptions } from './postgres.js';
export type { SqlDriver, SqlExecutor, SqlValue, SqlRow, SqlDialect } from './sql.js';
export { MIGRATIONS, migrate, type Migration } from './migrations.js';
export { roomModeGuard, type RoomMode, type RoomModeGuard, type RoomModeOptions } from './room-mode.js';

/** The data directory when none is given. */
export const DEFAULT_DATA_DIR = './data';
/** The database file's name inside the data directory. */
export const DATABASE_FILE = 'felt.db';

/** The database file for a data directory. */
export const databaseFile = (dataDir: string = DEFAULT_DATA_DIR): string => join(dataDir, DATABASE_FILE);

/**
 * Opens (creating if missing) the SQLite storage. Call `migrate()` and then recover its tables (`recoverTables`) before use;
 * `openMigratedSqliteStorage` does the first.
 */
export function openSqliteStorage(options: SqliteStorageOptions = {}): Storage {
  const file = options.memory === true ? ':memory:' : (options.file ?? databaseFile(options.dataDir));
  const driver = new SqliteDriver({
    file,
    ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
    ...(options.commitGapMs === undefined ? {} : { commitGapMs: options.commitGapMs }),
  });
  return sqlStorage(driver, options.clock);
}

/** Opens the SQLite storage and runs the migrations. */
export function openMigratedSqliteStorage(options: SqliteStorageOptions = {}): Promise<Storage> {
  return migrated(openSqliteStorage(options));
}

/**
 * Opens the PostgreSQL storage on a pool of connections (nothing is created until `migrate()`, which
 * `openMigratedPostgresStorage` runs). The database must exist; Felt creates its tables in it.
 */
export function openPostgresStorage(options: PostgresStorageOptions): Storage {
  const { clock, ...driver } = options;
  return sqlStorage(new PostgresDriver(driver), clock);
}

/** Opens the PostgreSQL storage and runs the migrations (several processes may do it at once). */
export function openMigratedPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  return migrated(openPostgresStorage(options));
}

export interface PostgresRoomOptions extends PostgresStorageOptions, RoomModeOptions {}

/** The one-process room's storage, and the guard of the database's kind (./room-mode.ts). */
export interface PostgresRoom {
  readonly storage: Storage;
  readonly mode: RoomModeGuard;
}

/**
 * The room's storage on PostgreSQL, migrated, for the one process that runs every table of the
 * database: it recovers every table in play on start and on stop, so a second process on the same
 * database would cancel the first one's hands. Refused while another holds the room's lock, and when
 * the database is a cluster's (checked here, claimed by the caller once its port is bound).
 */
export async function openPostgresRoomStorage(options: PostgresRoomOptions): Promise<PostgresRoom> {
  const { clock, switchMode, leaseMs, ...rest } = options;
  const driver = new PostgresDriver(rest);
  try {
    if (!(await driver.holdLock(ROOM_LOCK))) {
      throw new StorageOpenError(
        OpenErrorCode.ROOM_IN_USE,
        'another felt serve runs on this database without --bus (one such process per database)',
      );
    }
  } catch (error) {
    await driver.close();
    throw error;
  }
  const storage = await migrated(sqlStorage(driver, clock));
  const mode = roomModeGuard(driver, 'one-process', {
    leaseMs,
    ...(switchMode !== undefined ? { switchMode } : {}),
  });
  try {
    await mode.check();
  } catch (error) {
    await storage.close();
    throw error;
  }
  return { storage, mode };
}

/** Runs the storage's migrations; closes it if they fail. */
export async function migrated(storage: Storage): Promise<Storage> {
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}
