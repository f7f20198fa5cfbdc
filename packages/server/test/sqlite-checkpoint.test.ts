/**
 * WAL checkpoints run on the driver's worker thread (./src/storage/checkpointer.ts), not inside a
 * COMMIT on the event loop: committed pages reach the database file while the writer goes on, far
 * below the main connection's own (safety net) threshold.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SqliteDriver } from '../src/storage/index.js';

const dir = mkdtempSync(join(tmpdir(), 'felt-checkpoint-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

it('committed pages are checkpointed into the database file by the worker while the driver stays open', async () => {
  const file = join(dir, 'felt.db');
  const driver = new SqliteDriver({ file });
  try {
    await driver.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const before = statSync(file).size;
    // About 2 MB of rows: some 500 WAL pages, far below the main connection's automatic threshold.
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          driver.transaction((tx) =>
            tx.run('INSERT INTO t (v) VALUES (?)', ['x'.repeat(10_000 + batch + i)]),
          ),
        ),
      );
    }
    // A checkpoint may have run in the middle of the writes: wait for the next one to copy the rest.
    const enough = before + 1_000_000;
    let after = statSync(file).size;
    for (let waited = 0; after <= enough && waited < 10_000; waited += 50) {
      await sleep(50);
      after = statSync(file).size;
    }
    expect(after).toBeGreaterThan(enough);
    expect((await driver.get('SELECT COUNT(*) AS n FROM t'))?.['n']).toBe(200);
  } finally {
    await driver.close();
  }
});
