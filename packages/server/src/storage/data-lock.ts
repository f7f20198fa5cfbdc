/**
 * The data folder's lock: one `felt serve` per data directory. A second server on the same folder would
 * run crash recovery on the first one's live hands (cancel them, cash out its seats), so it must refuse
 * to start.
 *
 * The lock is an exclusive lock on a small SQLite file of its own, `felt.lock` (never the room's
 * database, which the admin commands and the checkpointer open beside the server): SQLite takes it with
 * the operating system's file lock (fcntl on Unix, LockFileEx on Windows), which the kernel drops when
 * the process dies — a SIGKILLed server leaves no stale lock behind, and a restart right after succeeds.
 * Node has no flock of its own; better-sqlite3 is already the room's driver, so this adds no package.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { OpenErrorCode, StorageOpenError } from './open-errors.js';

/** The lock file's name inside the data directory. */
export const LOCK_FILE = 'felt.lock';

/** Held while the server runs; `release` is idempotent. */
export interface DataLock {
  readonly file: string;
  release(): void;
}

const locked = (dataDir: string): StorageOpenError =>
  new StorageOpenError(
    OpenErrorCode.DATA_DIR_LOCKED,
    `another felt serve is running on the data folder ${dataDir} (it holds ${join(dataDir, LOCK_FILE)}); ` +
      'stop it first, or give this one another --data folder',
  );

/** Takes the data directory's lock (creating the directory if need be), or throws a {@link StorageOpenError} (`DATA_DIR_LOCKED`). */
export function lockDataDir(dataDir: string): DataLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const db = new Database(file, { timeout: 0 });
  try {
    // EXCLUSIVE locking mode keeps the write lock once taken, until the connection closes or the
    // process dies; the rollback journal (not WAL) makes that lock exclude readers too.
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    if (isBusy(error)) throw locked(dir);
    throw error;
  }
  let held = true;
  return {
    file,
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
