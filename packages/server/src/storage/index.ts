/** Storage: the interface (./types.ts), the portable SQL layer and the SQLite implementation. */
import { join } from 'node:path';
import { SqlStorage } from './sql-storage.js';
import { SqliteDriver } from './sqlite.js';
import type { SqliteStorageOptions, Storage } from './types.js';

export * from './types.js';
export { SqlStorage } from './sql-storage.js';
export { SqliteDriver } from './sqlite.js';
export type { SqlDriver, SqlExecutor, SqlValue, SqlRow, SqlDialect } from './sql.js';
export { MIGRATIONS, migrate, type Migration } from './migrations.js';

/** The data directory when none is given. */
export const DEFAULT_DATA_DIR = './data';
/** The database file's name inside the data directory. */
export const DATABASE_FILE = 'felt.db';

/** The database file for a data directory. */
export const databaseFile = (dataDir: string = DEFAULT_DATA_DIR): string => join(dataDir, DATABASE_FILE);

/**
 * Opens (creating if missing) the SQLite storage. Call `migrate()` and then `recover()` before use;
 * `openMigratedSqliteStorage` does the first.
 */
export function openSqliteStorage(options: SqliteStorageOptions = {}): Storage {
  const file = options.memory === true ? ':memory:' : (options.file ?? databaseFile(options.dataDir));
  const driver = new SqliteDriver({
    file,
    ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
    ...(options.commitGapMs === undefined ? {} : { commitGapMs: options.commitGapMs }),
  });
  return new SqlStorage(driver, options.clock);
}

/** Opens the SQLite storage and runs the migrations. */
export async function openMigratedSqliteStorage(options: SqliteStorageOptions = {}): Promise<Storage> {
  const storage = openSqliteStorage(options);
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}
