/**
 * The room's readiness while storage refuses writes (storage/readiness.ts): a waiting table keeps the
 * room not ready until it says it goes on; a refused request only for a while after the last refusal
 * (an idle room out of the balancer must come back), or until a write through the room's storage
 * succeeds. The storage under the watch is a real SQLite file; the refusals carry SQLite's full-disk code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_OUTAGE_HOLD_MS, StorageReadiness, watchedStorage } from '../src/storage/readiness.js';
import { openMigratedSqliteStorage } from '../src/storage/index.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the room is not ready while storage refuses its writes', () => {
  it('a waiting table keeps it not ready until it goes on; another source does not clear it', () => {
    let now = 1_000;
    const readiness = new StorageReadiness(() => now);
    readiness.failed('nl-1', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    now += 3_600_000;
    expect(readiness.ready).toBe(false);
    expect(readiness.outages()).toEqual([
      { source: 'nl-1', error: 'database or disk is full', since: 1_000 },
    ]);
    readiness.recovered('requests');
    expect(readiness.ready).toBe(false);
    readiness.recovered('nl-1');
    expect(readiness.ready).toBe(true);
  });

  it('a refused request holds it not ready for a while after the last refusal, or until a write succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-readiness-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const inner = await openMigratedSqliteStorage({ dataDir: dir, synchronous: 'normal' });
    cleanups.push(() => inner.close());
    let now = 1_000;
    const readiness = new StorageReadiness(() => now);
    const storage = watchedStorage(inner, readiness);
    expect(readiness.ready).toBe(true);
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const failing = watchedStorage(
      new Proxy(inner, {
        get: (target, property, receiver) =>
          property === 'createUser'
            ? () => Promise.reject(full)
            : (Reflect.get(target, property, receiver) as unknown),
      }),
      readiness,
    );
    await expect(failing.createUser({ name: 'ann', passwordHash: 'x', passwordSalt: 'y' })).rejects.toThrow(
      'full',
    );
    expect(readiness.ready).toBe(false);
    now += REQUEST_OUTAGE_HOLD_MS - 1;
    expect(readiness.ready).toBe(false);
    now += 1;
    expect(readiness.ready).toBe(true);

    await expect(failing.createUser({ name: 'ann', passwordHash: 'x', passwordSalt: 'y' })).rejects.toThrow(
      'full',
    );
    expect(readiness.ready).toBe(false);
    // A read succeeding shows nothing; a write does.
    expect(await storage.userByName('ann')).toBeNull();
    expect(readiness.ready).toBe(false);
    expect(await storage.createUser({ name: 'ann', passwordHash: 'x', passwordSalt: 'y' })).toMatchObject({
      ok: true,
    });
    expect(readiness.ready).toBe(true);
  });
});
