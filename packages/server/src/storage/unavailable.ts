/**
 * Which storage errors mean "the storage cannot write now" rather than "this request or the code is
 * wrong": a full disk, an I/O error, a database opened read-only, a lock held too long, a PostgreSQL
 * server out of space or out of reach. Such a failure passes once the operator frees space or the
 * database is back, so the room waits for it (the tables pause, requests get STORAGE_UNAVAILABLE)
 * instead of stopping a table for good. Anything else — a constraint, a refusal, a bug — is not.
 *
 * The code survives the storage thread (./thread.ts keeps a string `code`), so this reads the same
 * error on either side of it.
 */

/** better-sqlite3's extended result codes start with the primary one (`SQLITE_IOERR_WRITE`). */
const SQLITE_PREFIXES = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_BUSY'];

/**
 * PostgreSQL SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources (53100 disk
 * full), 57P01–57P03 the server shutting down or starting, 58030 an I/O error, 25006 a read-only
 * (standby) server.
 */
const PG_CLASSES = ['08', '53'];
const PG_CODES = new Set(['57P01', '57P02', '57P03', '58030', '25006']);

/** Node's socket errors when PostgreSQL is out of reach. */
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOSPC']);

export function isStorageUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  if (SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix))) return true;
  if (NODE_CODES.has(code) || PG_CODES.has(code)) return true;
  return code.length === 5 && PG_CLASSES.some((cls) => code.startsWith(cls));
}
