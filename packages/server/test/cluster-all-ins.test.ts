/**
 * The limit on artificial all-ins across the processes of a room (src/cluster/all-ins.ts) on a real
 * PostgreSQL: a grant by one process counts at every other once it has read the grants, a grant of more
 * than a day ago counts nowhere (and its row is forgotten), and a process that grants counts its grant
 * at once, before any read. Without PostgreSQL it skips, or fails when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import { SharedAllInCounter } from '../src/cluster/all-ins.js';
import { silentLogger } from '../src/log.js';
import { openMigratedPostgresStorage, PostgresDriver } from '../src/storage/index.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { opener } from './storage-contract-helpers.js';

const reachable = await postgresReachable();
const DAY_MS = 24 * 60 * 60 * 1000;

describe.runIf(reachable)('artificial all-ins counted across processes (PostgreSQL)', () => {
  const db = testDatabase();
  const open = opener(async () => {
    const url = await db.freshSchema();
    const storage = await openMigratedPostgresStorage({ url, poolSize: 2 });
    const driver = new PostgresDriver({ url, poolSize: 2 });
    return {
      driver,
      close: async () => {
        await driver.close();
        await storage.close();
      },
    };
  });

  /** Waits for the grants' rows to land (a grant is written in the background). */
  async function stored(driver: PostgresDriver, count: number): Promise<void> {
    for (let tries = 0; tries < 100; tries++) {
      const rows = await driver.all('SELECT id FROM all_in_grants');
      if (rows.length === count) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`not ${count} grants stored`);
  }

  it('a grant by one process counts at another once it has read the grants', async () => {
    const { driver } = await open();
    const first = new SharedAllInCounter(driver, silentLogger);
    const second = new SharedAllInCounter(driver, silentLogger);
    const now = 10 * DAY_MS;
    expect(first.take(7, now, 2)).toBe(true);
    // The granting process counts it at once.
    expect(first.left(7, now, 2)).toBe(1);
    await stored(driver, 1);
    await second.load(now);
    expect(second.left(7, now, 2)).toBe(1);
    expect(second.take(7, now + 1, 2)).toBe(true);
    expect(second.take(7, now + 2, 2)).toBe(false);
    await stored(driver, 2);
    await first.load(now + 3);
    // Read back, its own grant is counted once, not twice.
    expect(first.left(7, now + 3, 2)).toBe(0);
    expect(first.take(7, now + 3, 2)).toBe(false);
    expect(first.left(8, now + 3, 2)).toBe(2);
  });

  it('a grant of more than a day ago counts nowhere, and its row is forgotten', async () => {
    const { driver } = await open();
    const first = new SharedAllInCounter(driver, silentLogger);
    const now = 10 * DAY_MS;
    expect(first.take(7, now, 1)).toBe(true);
    await stored(driver, 1);
    const later = new SharedAllInCounter(driver, silentLogger);
    await later.load(now + DAY_MS - 1);
    expect(later.left(7, now + DAY_MS - 1, 1)).toBe(0);
    await later.load(now + DAY_MS);
    expect(later.left(7, now + DAY_MS, 1)).toBe(1);
    await stored(driver, 0);
  });
});
