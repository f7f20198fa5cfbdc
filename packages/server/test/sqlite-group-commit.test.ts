/**
 * The SQLite driver's group commit: write transactions queued together share one COMMIT (and, with
 * the default durability, one WAL sync off the event loop), each in its own savepoint — one that fails
 * leaves the others alone, and nothing resolves before it is durable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteDriver } from '../src/storage/index.js';

const dir = mkdtempSync(join(tmpdir(), 'felt-group-commit-'));
let files = 0;
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const drivers = [
  ['on a file (full)', () => new SqliteDriver({ file: join(dir, `${files++}.db`) })],
  ['on a file (normal)', () => new SqliteDriver({ file: join(dir, `${files++}.db`), synchronous: 'normal' })],
  ['in memory', () => new SqliteDriver({ file: ':memory:' })],
] as const;

describe.each(drivers)('group commit %s', (_name, open) => {
  it('a failing transaction in a batch rolls back alone; the others commit, in order', async () => {
    const driver = open();
    try {
      await driver.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          driver.transaction(async (tx) => {
            await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', [i, `v${i}`]);
            if (i % 5 === 3) throw new Error(`no ${i}`);
            // A constraint violation, caught: the transaction goes on (SQLite rolls back the statement).
            if (i === 7) {
              try {
                await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', [0, 'again']);
              } catch {
                // refused; the transaction goes on
              }
            }
            const row = await tx.get('SELECT COUNT(*) AS n FROM t');
            return row?.['n'];
          }),
        ),
      );
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
      expect(failed).toEqual([3, 8, 13, 18]);
      // Each saw the rows of those before it that stood, and its own.
      const counts = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
      const rows = await driver.all('SELECT k FROM t ORDER BY k');
      expect(rows.map((r) => r['k'])).toEqual(
        Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 5 !== 3),
      );
    } finally {
      await driver.close();
    }
  });

  it('reads and plain statements keep their place in the queue', async () => {
    const driver = open();
    try {
      await driver.exec('CREATE TABLE t (k INTEGER PRIMARY KEY)');
      const order: string[] = [];
      const a = driver
        .transaction(async (tx) => tx.run('INSERT INTO t (k) VALUES (1)'))
        .then(() => {
          order.push('a');
        });
      const read = driver.get('SELECT COUNT(*) AS n FROM t').then((row) => {
        order.push(`read ${String(row?.['n'])}`);
      });
      const b = driver
        .transaction(async (tx) => tx.run('INSERT INTO t (k) VALUES (2)'))
        .then(() => {
          order.push('b');
        });
      await Promise.all([a, read, b]);
      expect(order).toEqual(['a', 'read 1', 'b']);
      await driver.close();
      await expect(driver.get('SELECT 1')).rejects.toThrow(/closed/);
    } finally {
      await driver.close();
    }
  });
});

describe('commit gap', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a write batch begins no sooner than the gap after the last one: what arrives meanwhile commits with it; when idle, at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    const driver = new SqliteDriver({ file: ':memory:', commitGapMs: 100 });
    const settled: string[] = [];
    const write = (key: string): Promise<void> =>
      driver
        .transaction(async (tx) => tx.run('INSERT INTO t (k) VALUES (?)', [key]))
        .then(() => {
          settled.push(key);
        });
    const created = driver.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    await vi.advanceTimersByTimeAsync(0);
    await created;
    const writes = [write('a')];
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(10);
    writes.push(write('b'), write('c'));
    await vi.advanceTimersByTimeAsync(60);
    writes.push(write('d'));
    await vi.advanceTimersByTimeAsync(29);
    expect(settled).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
    await vi.advanceTimersByTimeAsync(500);
    writes.push(write('e'));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a', 'b', 'c', 'd', 'e']);
    await Promise.all(writes);
    // Everything waits its turn in the queue, closing too.
    const closed = driver.close();
    await vi.advanceTimersByTimeAsync(100);
    await closed;
  });
});
