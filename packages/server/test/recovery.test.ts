/**
 * RULES.md §1, server crash: every hand in progress is cancelled and the chips in it returned to the
 * players who put them in; every player at the tables gets his chips back to his account. On a real
 * database file, after a real SIGKILL.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFile, openMigratedSqliteStorage, type Storage } from '../src/storage/index.js';
import { recoverEveryTable } from './storage-contract-helpers.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'felt-recovery-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The built storage module (npm test builds before it tests). */
const BUILT = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'storage', 'index.js')).href;

/** A process that plays half a hand on the file, then is killed by SIGKILL without closing anything. */
const HALF_PLAYED = `
const { openMigratedSqliteStorage } = await import(process.env.BUILT);
const storage = await openMigratedSqliteStorage({ dataDir: process.env.DATA });
const ids = [];
for (const name of ['ann', 'bob', 'cat']) {
  const user = await storage.createUser({ name, passwordHash: 'h', passwordSalt: 's' });
  ids.push(user.value.id);
  await storage.cashier(user.value.id, 'credit', 10000);
  await storage.buyIn('nl-1', user.value.id, 'real', 2000);
}
// One hand finished (rake to the house), one in progress.
const first = (await storage.startHand({ tableId: 'nl-1', currency: 'real', description: 'NL',
  participants: ids.map((userId, i) => ({ userId, seat: i, position: i })),
  posts: [{ userId: ids[0], amount: 50 }, { userId: ids[1], amount: 100 }] })).value;
await storage.recordAction({ handId: first, seq: 0, action: 'call', moves: [{ userId: ids[2], amount: 100 }] });
await storage.recordAction({ handId: first, seq: 1, action: 'call', moves: [{ userId: ids[0], amount: 50 }] });
await storage.settleHand({ handId: first, awards: [{ userId: ids[2], amount: 285 }], rake: 15,
  history: { phh: 'p', views: [] } });
const second = (await storage.startHand({ tableId: 'nl-1', currency: 'real', description: 'NL',
  participants: ids.map((userId, i) => ({ userId, seat: i, position: i })),
  posts: [{ userId: ids[1], amount: 50 }, { userId: ids[2], amount: 100 }] })).value;
await storage.recordAction({ handId: second, seq: 0, action: 'raise', moves: [{ userId: ids[0], amount: 700 }] });
await storage.recordAction({ handId: second, seq: 1, action: 'call', moves: [{ userId: ids[1], amount: 650 }] });
process.stdout.write(JSON.stringify({ ids, second }) + '\\n');
process.kill(process.pid, 'SIGKILL');
`;

async function balancesOf(storage: Storage, ids: readonly number[]): Promise<number[]> {
  return Promise.all(ids.map(async (id) => (await storage.balances(id)).real));
}

describe('crash recovery', () => {
  it.skipIf(!existsSync(new URL(BUILT)))(
    'server crash: after SIGKILL mid-hand, recovery cancels the hand and returns every chip to who put it in',
    async () => {
      const data = tempDir();
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', HALF_PLAYED], {
        env: { ...process.env, BUILT, DATA: data },
        encoding: 'utf8',
      });
      expect(child.signal).toBe('SIGKILL');
      const { ids, second } = JSON.parse(child.stdout) as { ids: number[]; second: number };

      const storage = await openMigratedSqliteStorage({ dataDir: data });
      try {
        const before = await storage.audit();
        expect(before.conserved).toBe(true);
        expect(before.handsInProgress).toBe(1);
        expect(before.currencies.real).toMatchObject({ pots: 1500, house: 15, external: -30000 });
        expect(await storage.handStatus(second)).toBe('in-progress');

        expect(await recoverEveryTable(storage)).toEqual({
          handsCancelled: 1,
          refunded: 1500,
          seatsCashedOut: 3,
          cashedOut: 5985,
        });
        expect(await storage.handStatus(second)).toBe('cancelled');
        // The finished hand stands (cat won 285 of the 300, 15 raked); the cancelled one is undone.
        expect(await balancesOf(storage, ids)).toEqual([9900, 9900, 10185]);
        const after = await storage.audit();
        expect(after.problems).toEqual([]);
        expect(after.currencies.real).toEqual({
          accounts: 29985,
          seats: 0,
          pots: 0,
          house: 15,
          prizePools: 0,
          external: -30000,
          sum: 0,
        });
        expect(await storage.seats()).toEqual([]);
      } finally {
        await storage.close();
      }
    },
  );

  it('a crash during recovery: recovering again finishes the job and moves no chip twice', async () => {
    const data = tempDir();
    let storage = await openMigratedSqliteStorage({ dataDir: data });
    const ids: number[] = [];
    for (const name of ['ann', 'bob']) {
      const user = await storage.createUser({ name, passwordHash: 'h', passwordSalt: 's' });
      if (!user.ok) throw new Error(user.error.message);
      ids.push(user.value.id);
      await storage.topUp(user.value.id, 1000);
      await storage.buyIn('a', user.value.id, 'play', 300);
      await storage.buyIn('b', user.value.id, 'play', 300);
    }
    const hands: number[] = [];
    for (const table of ['a', 'b']) {
      const hand = await storage.startHand({
        tableId: table,
        currency: 'play',
        description: 'x',
        participants: ids.map((userId, i) => ({ userId, seat: i, position: i })),
        posts: ids.map((userId, i) => ({ userId, amount: 10 * (i + 1) })),
      });
      if (!hand.ok) throw new Error(hand.error.message);
      hands.push(hand.value);
    }
    // The first recovery got as far as one hand and one seat, then the process died.
    expect((await storage.cancelHand(hands[0]!)).ok).toBe(true);
    expect(await storage.cashOut('a', ids[0]!, 'play')).toEqual({ ok: true, value: 300 });
    await storage.close();

    storage = await openMigratedSqliteStorage({ dataDir: data });
    try {
      expect(await recoverEveryTable(storage)).toEqual({
        handsCancelled: 1,
        refunded: 30,
        seatsCashedOut: 3,
        cashedOut: 900,
      });
      expect(await recoverEveryTable(storage)).toEqual({
        handsCancelled: 0,
        refunded: 0,
        seatsCashedOut: 0,
        cashedOut: 0,
      });
      for (const id of ids) expect(await storage.balances(id)).toEqual({ play: 1000, real: 0 });
      const report = await storage.audit();
      expect(report.problems).toEqual([]);
      expect(report.currencies.play).toEqual({
        accounts: 2000,
        seats: 0,
        pots: 0,
        house: 0,
        prizePools: 0,
        external: -2000,
        sum: 0,
      });
    } finally {
      await storage.close();
    }
  });

  it('the database file is journaled with WAL in the data directory', async () => {
    const data = tempDir();
    const storage = await openMigratedSqliteStorage({ dataDir: data });
    await storage.close();
    const db = new Database(databaseFile(data), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });
});
