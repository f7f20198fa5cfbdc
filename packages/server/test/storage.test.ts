import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  migrate,
  MIGRATIONS,
  openMigratedSqliteStorage,
  SqliteDriver,
  sqlStorage,
  type Migration,
} from '../src/storage/index.js';
import { intCol } from '../src/storage/sql.js';
import { openStorageThread } from '../src/storage/thread.js';
import { storageContract } from './storage-contract.js';
import { migrationsContract } from './storage-contract-migrations.js';
import { staffAuditTamperContract } from './storage-contract-staff.js';
import { recoverEveryTable } from './storage-contract-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'felt-storage-'));
let files = 0;
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

storageContract('SQLite on a file', () => openMigratedSqliteStorage({ dataDir: join(dir, String(files++)) }));
storageContract('SQLite in memory', () => openMigratedSqliteStorage({ memory: true }));
storageContract('SQLite on its own thread', () => openStorageThread({ dataDir: join(dir, String(files++)) }));
migrationsContract('SQLite', () => Promise.resolve(new SqliteDriver({ file: join(dir, `${files++}.db`) })));
staffAuditTamperContract('SQLite', () =>
  Promise.resolve(new SqliteDriver({ file: join(dir, `${files++}.db`) })),
);

describe('migrations (SQLite)', () => {
  it('apply in order, once each, and record themselves', async () => {
    const driver = new SqliteDriver({ file: ':memory:' });
    try {
      const steps: Migration[] = [
        { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
        { version: 2, name: 'b', sql: 'CREATE TABLE b (id {{id}}, y TEXT)' },
      ];
      expect(await migrate(driver, () => 1, steps.slice(0, 1))).toEqual([1]);
      expect(await migrate(driver, () => 2, steps)).toEqual([2]);
      expect(await migrate(driver, () => 3, steps)).toEqual([]);
      const rows = await driver.all(
        'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
      );
      expect(rows).toEqual([
        { version: 1, name: 'a', applied_at: 1 },
        { version: 2, name: 'b', applied_at: 2 },
      ]);
    } finally {
      await driver.close();
    }
  });

  it('a failed migration leaves no trace, and a database newer than the program is refused', async () => {
    const driver = new SqliteDriver({ file: ':memory:' });
    try {
      const bad: Migration = {
        version: 1,
        name: 'bad',
        sql: 'CREATE TABLE c (x INTEGER); CREATE TABLE c (x INTEGER);',
      };
      await expect(migrate(driver, () => 1, [bad])).rejects.toThrow();
      expect(await driver.all('SELECT version FROM schema_migrations')).toEqual([]);
      expect(await driver.all("SELECT name FROM sqlite_master WHERE name = 'c'")).toEqual([]);
      await migrate(driver, () => 1, MIGRATIONS);
      await expect(migrate(driver, () => 1, [])).rejects.toThrow(/newer/);
      await expect(
        migrate(driver, () => 1, [
          { version: 2, name: 'x', sql: '' },
          { version: 1, name: 'y', sql: '' },
        ]),
      ).rejects.toThrow(/order/);
    } finally {
      await driver.close();
    }
  });
});

describe('migration 3: the actions of a hand stored together (SQLite)', () => {
  it('keeps the journal of a hand in progress and stores it in key order', async () => {
    const driver = new SqliteDriver({ file: ':memory:' });
    try {
      await migrate(driver, () => 1, MIGRATIONS.slice(0, 2));
      await driver.run(
        'INSERT INTO users (name, password_hash, password_salt, created_at) VALUES (?, ?, ?, ?)',
        ['ann', 'h', 's', 1],
      );
      await driver.run(
        "INSERT INTO hands (table_id, currency, description, status, started_at) VALUES ('t', 'play', 'x', 'in-progress', 1)",
      );
      for (const seq of [1, 0]) {
        await driver.run('INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (1, ?, ?, 2)', [
          seq,
          `action ${seq}`,
        ]);
      }
      expect(await migrate(driver, () => 3, MIGRATIONS.slice(0, 3))).toEqual([3]);
      expect(await driver.all('SELECT hand_id, seq, action, created_at FROM hand_actions')).toEqual([
        { hand_id: 1, seq: 0, action: 'action 0', created_at: 2 },
        { hand_id: 1, seq: 1, action: 'action 1', created_at: 2 },
      ]);
      const table = await driver.get("SELECT sql FROM sqlite_master WHERE name = 'hand_actions'");
      expect(String(table?.['sql'])).toMatch(/WITHOUT ROWID$/);
    } finally {
      await driver.close();
    }
  });
});

describe('storage on its own thread', () => {
  it('a call after the thread has stopped fails with a clear error instead of hanging', async () => {
    const storage = await openStorageThread({ dataDir: join(dir, String(files++)) });
    await storage.close();
    await expect(storage.balances(1)).rejects.toThrow(/storage thread exited/);
  });

  it('a call whose arguments cannot cross to the thread fails alone; the storage goes on', async () => {
    const storage = await openStorageThread({ dataDir: join(dir, String(files++)) });
    try {
      const notData = (() => 1) as unknown as number;
      // Both calls leave in the same turn of the event loop, in one message at first.
      const [bad, good] = await Promise.allSettled([storage.balances(notData), storage.balances(1)]);
      expect(bad.status === 'rejected' ? String(bad.reason) : bad.status).toMatch(/could not be cloned/);
      expect(good).toEqual({ status: 'fulfilled', value: { play: 0, real: 0 } });
    } finally {
      await storage.close();
    }
  });
});

describe('hands begun by an earlier Felt (SQLite)', () => {
  it('recovery returns the chips an earlier Felt had moved into a hand pot to the seats of who put them in', async () => {
    const driver = new SqliteDriver({ file: ':memory:' });
    const storage = sqlStorage(driver);
    try {
      await storage.migrate();
      const ids: number[] = [];
      for (const name of ['ann', 'bob']) {
        const created = await storage.createUser({ name, passwordHash: 'h', passwordSalt: 's' });
        if (!created.ok) throw new Error(created.error.message);
        ids.push(created.value.id);
        await storage.topUp(created.value.id, 1000);
        await storage.buyIn('p1', created.value.id, 'play', 500);
      }
      const [ann, bob] = ids as [number, number];
      const started = await storage.startHand({
        tableId: 'p1',
        currency: 'play',
        description: 'hold',
        participants: [
          { userId: ann, seat: 0, position: 0 },
          { userId: bob, seat: 1, position: 1 },
        ],
        posts: [
          { userId: ann, amount: 5 },
          { userId: bob, amount: 10 },
        ],
      });
      if (!started.ok) throw new Error(started.error.message);
      const hand = started.value;
      // What an earlier Felt wrote for those blinds: a transaction moving them from the seats to the pot.
      await driver.transaction(async (tx) => {
        const row = await tx.get(
          "INSERT INTO ledger_transactions (kind, currency, memo, created_at) VALUES ('contribution', 'play', 'blinds', 0) RETURNING id",
        );
        const transaction = intCol(row!, 'id');
        await tx.run(
          "INSERT INTO ledger_accounts (account_key, kind, currency, hand_id, balance) VALUES (?, 'pot', 'play', ?, 15)",
          [`pot:play:${hand}`, hand],
        );
        const postings: [string, number][] = [
          [`seat:play:${ann}:p1`, -5],
          [`seat:play:${bob}:p1`, -10],
          [`pot:play:${hand}`, 15],
        ];
        for (const [key, amount] of postings) {
          if (!key.startsWith('pot:')) {
            await tx.run('UPDATE ledger_accounts SET balance = balance + ? WHERE account_key = ?', [
              amount,
              key,
            ]);
          }
          await tx.run('INSERT INTO ledger_postings (transaction_id, account_key, amount) VALUES (?, ?, ?)', [
            transaction,
            key,
            amount,
          ]);
        }
      });
      const before = await storage.audit();
      expect(before.problems).toEqual([]);
      expect(before.currencies.play).toMatchObject({ pots: 15, seats: 985, sum: 0 });
      expect(await recoverEveryTable(storage)).toEqual({
        handsCancelled: 1,
        refunded: 15,
        seatsCashedOut: 2,
        cashedOut: 1000,
      });
      expect(await storage.balances(ann)).toEqual({ play: 1000, real: 0 });
      expect(await storage.balances(bob)).toEqual({ play: 1000, real: 0 });
      const after = await storage.audit();
      expect(after.problems).toEqual([]);
      expect(after.currencies.play).toMatchObject({ pots: 0, seats: 0, accounts: 2000, sum: 0 });
    } finally {
      await storage.close();
    }
  });
});
