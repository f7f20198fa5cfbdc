/**
 * Storage failing under the room, on a real SQLite file: a fault is planted with a trigger that makes
 * SQLite itself refuse a write (as a full disk or a damaged page would), so that the real driver, the
 * real storage thread and the real server meet a real error. A request that fails changes nothing
 * (sign-up is one transaction), its error keeps its message across the storage thread, and a table
 * that stops on it shows in `/health` and in the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Accounts } from '../src/accounts/accounts.js';
import { createLogger } from '../src/log.js';
import { openStorageThread } from '../src/storage/thread.js';
import type { ClockConfig, TableConfig } from '../src/table/types.js';
import { Player } from './integration-helpers.js';
import { startTestRoom, TEST_SCRYPT, type TestRoom } from './transport-client.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Makes every insert into `table` fail inside SQLite with `words`. */
function plantFault(file: string, table: string, words: string): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.exec(`CREATE TRIGGER fault BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, '${words}'); END`);
  } finally {
    db.close();
  }
}

describe('a failed request changes nothing, and says why', () => {
  it('sign-up is one transaction: when its play chips cannot be written, there is no account either; the error keeps its words across the storage thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-faults-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const storage = await openStorageThread({ dataDir: dir, synchronous: 'normal' });
    cleanups.push(() => storage.close());
    plantFault(join(dir, 'felt.db'), 'ledger_postings', 'the ledger cannot be written');
    const accounts = new Accounts(storage, { scrypt: TEST_SCRYPT, signUpPlayMoney: 100_000 });

    const error: unknown = await accounts.signUp('nochips', 'correct horse').then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('the ledger cannot be written');
    expect(String(error)).not.toContain('[object Object]');
    expect(await storage.userByName('nochips')).toBeNull();
  });
});

const CLOCKS: ClockConfig = {
  actionMs: 60_000,
  drawMs: 60_000,
  runTwiceMs: 60_000,
  timeBankMs: 0,
  timeBankRefillMs: 0,
  betweenHandsMs: 200,
};
const TABLE: TableConfig = {
  id: 'nl-fault',
  name: 'nl-fault',
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 6,
  clocks: CLOCKS,
};

describe('a table that stops on an error is reported', () => {
  it('/health answers 503, not ok, naming the table and why; the log says it too', async () => {
    const lines: string[] = [];
    const room: TestRoom = await startTestRoom({
      tables: [TABLE],
      logger: createLogger({ destination: { write: (line) => lines.push(line) } }),
    });
    cleanups.push(() => room.close());
    const url = room.server.url.replace('localhost', '127.0.0.1');
    expect((await fetch(`${room.http}/health`)).status).toBe(200);
    const players = await Promise.all(
      ['f1', 'f2'].map((name) => Player.signUp(url, `${name}${process.pid}`)),
    );
    cleanups.push(() => {
      for (const player of players) player.close();
    });
    for (const player of players) player.autoplay = false;
    // Every action of a hand fails to be stored from now on.
    plantFault(join(room.dataDir, 'felt.db'), 'hand_actions', 'the journal cannot be written');
    for (const [seat, player] of players.entries()) await player.sit(TABLE.id, seat, 10_000);
    // The first hand's forced bets cannot be stored: the table stops.
    // The operators' /health: the players' says only that the room is failing.
    let health = await fetch(`${room.operator}/health`);
    for (const end = Date.now() + 20_000; health.status === 200 && Date.now() < end;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      health = await fetch(`${room.operator}/health`);
    }
    expect(health.status).toBe(503);
    const body = (await health.json()) as {
      status: string;
      failedTables: { tableId: string; error: string }[];
    };
    expect(body.status).toBe('failing');
    expect(body.failedTables).toEqual([
      expect.objectContaining({
        tableId: TABLE.id,
        error: expect.stringContaining('the journal cannot be written') as unknown,
      }),
    ]);
    const told = await fetch(`${room.http}/health`);
    expect(told.status).toBe(503);
    expect(await told.json()).toEqual({ status: 'failing', ready: true });
    expect(lines.map((line) => JSON.parse(line) as unknown)).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'table stopped',
        tableId: TABLE.id,
        err: expect.objectContaining({
          message: expect.stringContaining('the journal cannot be written') as unknown,
        }) as unknown,
      }),
    );
  });
});
