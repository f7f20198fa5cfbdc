/**
 * A full disk under a running one-process room: the room's data on a small tmpfs, filled while two
 * players play, then freed — no restart. Where this machine does not let the test mount a tmpfs (not
 * root, a container without the right), the same test runs on storage that refuses every write with
 * SQLite's own "database or disk is full" while a switch is on, and says so on stderr.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolClient } from '../src/bots/client.js';
import type { Storage } from '../src/storage/types.js';
import type { ClockConfig, TableConfig } from '../src/table/types.js';
import { audit, handsDealt, Player } from './integration-helpers.js';
import { startTestRoom, type TestRoom } from './transport-client.js';

/** Where the room's data lives, and how to fill and free it. */
interface Disk {
  readonly kind: 'tmpfs' | 'refusing storage';
  readonly dataDir: string;
  readonly wrapStorage?: (storage: Storage) => Storage;
  fill(): void;
  free(): void;
  remove(): void;
}

/** A 32 MB tmpfs of our own (null where mounting is not allowed). */
function tmpfsDisk(): Disk | null {
  const mount = mkdtempSync(join(tmpdir(), 'felt-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mount], { stdio: 'pipe' });
  } catch {
    rmSync(mount, { recursive: true, force: true });
    return null;
  }
  const dataDir = join(mount, 'data');
  mkdirSync(dataDir);
  const filler = join(mount, 'filler');
  let reader: Database.Database | null = null;
  return {
    kind: 'tmpfs',
    dataDir,
    fill() {
      // A reader's open snapshot keeps SQLite from starting its WAL over (it would write there again
      // without taking a byte more): full then means what it says for every write that follows.
      reader = new Database(join(dataDir, 'felt.db'));
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM users').get();
      const fd = openSync(filler, 'w');
      try {
        for (const size of [1 << 20, 4096, 512]) {
          const chunk = Buffer.alloc(size, 1);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (error) {
            if ((error as { code?: unknown }).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      if (reader !== null) {
        reader.exec('COMMIT');
        reader.close();
        reader = null;
      }
      rmSync(filler, { force: true });
    },
    remove() {
      try {
        execFileSync('umount', [mount], { stdio: 'pipe' });
      } catch {
        // Still busy (a room that did not stop): detached now, gone once its files close.
        execFileSync('umount', ['-l', mount], { stdio: 'pipe' });
      }
      rmSync(mount, { recursive: true, force: true });
    },
  };
}

/** The calls that write: refused, as SQLite refuses them on a full disk, while the switch is on. */
const WRITES = new Set(['createUser', 'createSession', 'topUp', 'buyIn', 'cashOut', 'startHand']);
for (const method of ['recordAction', 'settleHand', 'cancelHand', 'saveFairLink', 'setNote'])
  WRITES.add(method);

function refusingDisk(): Disk {
  const dataDir = mkdtempSync(join(tmpdir(), 'felt-full-'));
  let full = false;
  return {
    kind: 'refusing storage',
    dataDir,
    wrapStorage: (storage) =>
      new Proxy(storage, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function' || typeof property !== 'string' || !WRITES.has(property))
            return value;
          const method = value as (...args: unknown[]) => unknown;
          return (...args: unknown[]) =>
            full
              ? Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))
              : method.apply(target, args);
        },
      }),
    fill() {
      full = true;
    },
    free() {
      full = false;
    },
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const CLOCKS: ClockConfig = {
  actionMs: 60_000,
  drawMs: 60_000,
  runTwiceMs: 60_000,
  timeBankMs: 0,
  timeBankRefillMs: 0,
  betweenHandsMs: 50,
};
const TABLE: TableConfig = {
  id: 'nl-full',
  name: 'nl-full',
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 6,
  clocks: CLOCKS,
};

/** Waits for `test` to hold, asking again every 25 ms, for at most `ms`. */
async function until<T>(
  what: string,
  read: () => Promise<T> | T,
  test: (value: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (test(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Health {
  readonly status: number;
  readonly body: { status: string; storageOutages?: { source: string; error: string }[] };
}

const cleanups: (() => Promise<void> | void)[] = [];
// Every cleanup runs even when one fails: a tmpfs left mounted outlives the test run.
afterEach(async () => {
  const errors: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
});

/** A room on `disk` with two players seated, and what the tests read of it. */
async function roomOn(disk: Disk) {
  cleanups.push(() => {
    disk.remove();
  });
  const room: TestRoom = await startTestRoom({
    dataDir: disk.dataDir,
    tables: [TABLE],
    ...(disk.wrapStorage !== undefined ? { wrapStorage: disk.wrapStorage } : {}),
  });
  cleanups.push(() => room.close());
  // A test that failed while the disk was full: the room stops with room to write its stop.
  cleanups.push(() => {
    disk.free();
  });
  const url = room.server.url.replace('localhost', '127.0.0.1');
  // The operators' /health names what waits; the public one says only that the room is not ready.
  const health = async (): Promise<Health> => {
    const [full, open] = await Promise.all([fetch(`${room.operator}/health`), fetch(`${room.http}/health`)]);
    expect(open.status).toBe(full.status);
    return { status: full.status, body: (await full.json()) as Health['body'] };
  };
  const players = await Promise.all(
    ['ann', 'bob'].map((name) => Player.signUp(url, `${name}${process.pid}`)),
  );
  cleanups.push(() => {
    for (const player of players) player.close();
  });
  const [ann, bob] = players as [Player, Player];
  const money = (await room.server.storage.balances(ann.id)).play;
  return { room, storage: room.server.storage, url, health, ann, bob, money };
}

/** The raw chips of each seat at the table (during a hand: the stacks it began with). */
async function seatChips(storage: Storage): Promise<Map<number, number>> {
  const seats = await storage.seats();
  return new Map(seats.filter((seat) => seat.tableId === TABLE.id).map((seat) => [seat.userId, seat.amount]));
}

/** Both players leave (one in a hand leaves when it ends): every chip must come back to the balances. */
async function bothCashOut(room: Awaited<ReturnType<typeof roomOn>>): Promise<void> {
  const { storage, ann, bob, money } = room;
  ann.autoplay = true;
  bob.autoplay = true;
  expect(await ann.client.request('seat-leave', { tableId: TABLE.id })).toMatchObject({ ok: true });
  expect(await bob.client.request('seat-leave', { tableId: TABLE.id })).toMatchObject({ ok: true });
  const balances = async () => (await storage.balances(ann.id)).play + (await storage.balances(bob.id)).play;
  await until('both cashed out', balances, (sum) => sum === 2 * money);
  expect(await storage.seat(TABLE.id, ann.id, 'play')).toBe(0);
  expect(await storage.seat(TABLE.id, bob.id, 'play')).toBe(0);
}

/** A tmpfs of our own, or where none may be mounted storage refusing writes, said on stderr. */
function fullDisk(): Disk {
  const mounted = tmpfsDisk();
  if (mounted === null)
    console.warn('storage-full: no tmpfs may be mounted here; storage refusing writes stands in for it');
  return mounted ?? refusingDisk();
}

/**
 * Storage takes writes again: without a restart the room is ready, the table's hand that met the
 * refusal is not left in progress, a hand is dealt, both players cash out to the chip, a sign-up works
 * and the audit is conserved.
 */
async function goesOn(room: Awaited<ReturnType<typeof roomOn>>, disk: Disk, lastHand: number, dealt: number) {
  const { storage, url, health, ann } = room;
  disk.free();
  await until('the room ready again', health, (h) => h.status === 200);
  expect(await storage.handStatus(lastHand)).not.toBe('in-progress');
  await until(
    'a hand dealt after the disk was freed',
    () => handsDealt(ann.events, 0).length,
    (n) => n > dealt,
  );
  await bothCashOut(room);
  const newcomer = await ProtocolClient.connect(url);
  cleanups.push(() => {
    newcomer.close();
  });
  expect(
    await newcomer.request('signup', { name: `dan${process.pid}`, password: 'correct horse battery' }),
  ).toMatchObject({ ok: true });
  expect(await audit(disk.dataDir)).toMatchObject({ conserved: true, handsInProgress: 0, problems: [] });
}

/** Two players seated and playing on `disk`, then the disk filled: the room not ready, naming the table. */
async function playThenFill(disk: Disk) {
  const room = await roomOn(disk);
  const { health, ann, bob } = room;
  await ann.sit(TABLE.id, 0, 10_000);
  await bob.sit(TABLE.id, 1, 10_000);
  await until(
    'hands dealt',
    () => handsDealt(ann.events, 0).length,
    (n) => n >= 2,
  );
  disk.fill();
  const waiting = await until('the room not ready', health, (h) => h.status === 503);
  expect(waiting.body.status).toBe('failing');
  expect(waiting.body.storageOutages).toContainEqual(
    expect.objectContaining({ source: TABLE.id, error: expect.stringContaining('full') as unknown }),
  );
  const dealt = handsDealt(ann.events, 0);
  return { room, lastHand: dealt.at(-1)!, dealt: dealt.length };
}

describe('a full disk stops nothing for good', () => {
  // On a real disk a small write may still fit in WAL space SQLite holds already, so what each request
  // gets while it is full is checked on storage refusing every write (next test), not here.
  it('a tmpfs filled up under the room (where none may be mounted: storage refusing writes): the table waits and the room is not ready; freed, without a restart, it deals again, cashes out and signs up, conserved', async () => {
    const disk = fullDisk();
    const { room, lastHand, dealt } = await playThenFill(disk);
    await goesOn(room, disk, lastHand, dealt);
  });

  it('while storage refuses every write, seat-leave, sign-up (WebSocket and browser) and top-up answer STORAGE_UNAVAILABLE and change nothing, and the room stays not ready; once it takes writes the room goes on', async () => {
    const disk = refusingDisk();
    const { room, lastHand, dealt } = await playThenFill(disk);
    const { storage, url, health, ann, bob } = room;
    const seatBefore = await storage.seat(TABLE.id, ann.id, 'play');
    const balanceBefore = await storage.balances(ann.id);
    expect(await ann.client.request('seat-leave', { tableId: TABLE.id })).toMatchObject({
      ok: false,
      code: 'STORAGE_UNAVAILABLE',
    });
    const newcomer = await ProtocolClient.connect(url);
    cleanups.push(() => {
      newcomer.close();
    });
    const name = `cat${process.pid}`;
    const signUp = await newcomer.request('signup', { name, password: 'correct horse battery' });
    expect(signUp).toMatchObject({ ok: false, code: 'STORAGE_UNAVAILABLE' });
    const browser = await fetch(`${room.room.http}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, password: 'correct horse battery' }),
    });
    expect(browser.status).toBe(503);
    expect(await browser.json()).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(await storage.userByName(name)).toBeNull();
    const bobBefore = await storage.balances(bob.id);
    expect(await bob.client.request('top-up', { amount: 1000 })).toMatchObject({
      ok: false,
      code: 'STORAGE_UNAVAILABLE',
    });
    expect(await storage.balances(bob.id)).toEqual(bobBefore);
    expect(await storage.seat(TABLE.id, ann.id, 'play')).toBe(seatBefore);
    expect(await storage.balances(ann.id)).toEqual(balanceBefore);
    expect((await health()).status).toBe(503);
    await goesOn(room, disk, lastHand, dealt);
  });

  it('a hand whose action could not be written is cancelled by the crash rule once storage takes writes: every chip back in the seat it came from, and the next hand dealt', async () => {
    const disk = refusingDisk();
    const room = await roomOn(disk);
    const { storage, health, ann, bob } = room;
    ann.autoplay = false;
    bob.autoplay = false;
    await ann.sit(TABLE.id, 0, 10_000);
    await bob.sit(TABLE.id, 1, 8_000);
    const turn = await until(
      'a decision asked',
      () => [ann, bob].find((player) => player.legal !== null) ?? null,
      (player) => player !== null,
    );
    const { handId, legal } = turn!.legal!;
    const atDeal = await seatChips(storage);
    expect(atDeal).toEqual(
      new Map([
        [ann.id, 10_000],
        [bob.id, 8_000],
      ]),
    );

    disk.fill();
    const action = legal.check ? { type: 'check' } : { type: 'call' };
    const acted = await turn!.client.request('act', { tableId: TABLE.id, handId, action });
    expect(acted).toMatchObject({ ok: false, code: 'STORAGE_UNAVAILABLE' });
    expect((await health()).status).toBe(503);
    expect(await storage.handStatus(handId)).toBe('in-progress');
    const other = turn === ann ? bob : ann;
    expect(await other.client.request('sit-out', { tableId: TABLE.id })).toMatchObject({
      ok: false,
      code: 'STORAGE_UNAVAILABLE',
    });

    disk.free();
    await until('the room ready again', health, (h) => h.status === 200);
    expect(await storage.handStatus(handId)).toBe('cancelled');
    // Nothing the cancelled hand took is lost: each seat holds what it held at its deal.
    expect(await seatChips(storage)).toEqual(atDeal);
    await until(
      'the next hand dealt',
      () => Math.max(...handsDealt(ann.events, 0)),
      (id) => id > handId,
    );
    await bothCashOut(room);
    expect(await audit(disk.dataDir)).toMatchObject({ conserved: true, handsInProgress: 0, problems: [] });
  });

  it('a player whose leave could not be written is cashed out once storage takes writes', async () => {
    const disk = refusingDisk();
    const room = await roomOn(disk);
    const { storage, health, ann, money } = room;
    await ann.sit(TABLE.id, 0, 10_000);
    expect(await storage.seat(TABLE.id, ann.id, 'play')).toBe(10_000);

    disk.fill();
    const leave = await ann.client.request('seat-leave', { tableId: TABLE.id });
    expect(leave).toMatchObject({ ok: false, code: 'STORAGE_UNAVAILABLE' });
    expect((await health()).status).toBe(503);
    expect(await storage.seat(TABLE.id, ann.id, 'play')).toBe(10_000);

    disk.free();
    await until('the room ready again', health, (h) => h.status === 200);
    expect(await storage.seat(TABLE.id, ann.id, 'play')).toBe(0);
    expect((await storage.balances(ann.id)).play).toBe(money);
    expect(await audit(disk.dataDir)).toMatchObject({ conserved: true, handsInProgress: 0, problems: [] });
  });
});
