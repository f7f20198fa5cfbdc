/**
 * Which storage errors the room waits out (storage/unavailable.ts), on errors SQLite itself raises on a
 * real file: a database that may not grow (as a full disk) and one opened read-only are; a write a
 * trigger refuses (as a broken invariant) is not. The code survives the storage thread's wire.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fromWireError, toWireError } from '../src/storage/thread.js';
import { isStorageUnavailable } from '../src/storage/unavailable.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function database(): { file: string; db: Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'felt-unavailable-'));
  dirs.push(dir);
  const file = join(dir, 'felt.db');
  const db = new Database(file);
  db.exec('CREATE TABLE t (x TEXT)');
  return { file, db };
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}

describe('a storage error is waited out only when storage cannot write for now', () => {
  it('a database that may not grow (SQLITE_FULL, "database or disk is full") is, also across the storage thread', () => {
    const { db } = database();
    const pages = Number(db.pragma('page_count', { simple: true }));
    db.pragma(`max_page_count = ${pages}`);
    const error = thrown(() => db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000)));
    db.close();
    expect(String(error)).toContain('database or disk is full');
    expect(isStorageUnavailable(error)).toBe(true);
    expect(isStorageUnavailable(fromWireError(toWireError(error)))).toBe(true);
  });

  it('a database opened read-only (SQLITE_READONLY) is', () => {
    const { file, db } = database();
    db.close();
    const readOnly = new Database(file, { readonly: true });
    const error = thrown(() => readOnly.prepare('INSERT INTO t VALUES (1)').run());
    readOnly.close();
    expect(isStorageUnavailable(error)).toBe(true);
  });

  it('a write refused by the schema (a trigger, a constraint), a plain error or a non-error is not', () => {
    const { db } = database();
    db.exec("CREATE TRIGGER no BEFORE INSERT ON t BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const error = thrown(() => db.prepare('INSERT INTO t VALUES (1)').run());
    db.close();
    expect(isStorageUnavailable(error)).toBe(false);
    expect(isStorageUnavailable(new Error('database or disk is full'))).toBe(false);
    expect(isStorageUnavailable('SQLITE_FULL')).toBe(false);
    expect(isStorageUnavailable(null)).toBe(false);
  });

  it('PostgreSQL out of space or out of reach is (53100, 08006, 57P01, ECONNREFUSED); a unique violation (23505) is not', () => {
    for (const code of ['53100', '08006', '57P01', 'ECONNREFUSED'])
      expect(isStorageUnavailable(Object.assign(new Error(code), { code }))).toBe(true);
    expect(isStorageUnavailable(Object.assign(new Error('duplicate'), { code: '23505' }))).toBe(false);
  });
});
