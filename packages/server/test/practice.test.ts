/**
 * Practice tables: house bots fill a play-money table while a person watches it, play hands there by
 * the strategy of `felt bots`, give their seats up to people, and leave when nobody is there; their
 * chips are ledger money like anyone's (the audit balances), and no bots sit where the table set does
 * not ask for them.
 */
import type { ServerMessage, TableView } from '@felt/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOM_GAMES } from '@felt/protocol';
import { checkTableSet, defaultTableSet } from '../src/lobby/config.js';
import { houseBotsOf } from '../src/practice/config.js';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import { houseBotName } from '../src/practice/roster.js';
import { signedUp, startTestRoom, TestClient, type TestRoom } from './transport-client.js';

const clocks = { betweenHandsMs: 20, actionMs: 5000 };
const practice = (id: string, game: string, structure: string, houseBots = 3) => ({
  id,
  name: id,
  game,
  structure,
  stakes: { small: 100, big: 200 },
  currency: 'play',
  clocks,
  houseBots,
});

let room: TestRoom | null = null;
afterEach(async () => {
  await room?.close();
  room = null;
});

const start = async (tables: readonly unknown[]): Promise<TestRoom> => {
  room = await startTestRoom({
    tables: tables as never,
    houseBots: { thinkMs: 5, pollMs: 20 },
  });
  return room;
};

const snapshot = (
  client: TestClient,
  tableId: string,
  test: (view: TableView) => boolean,
  timeoutMs = 20_000,
) =>
  client.next(
    (m): m is Extract<ServerMessage, { op: 'table-snapshot' }> =>
      m.op === 'table-snapshot' && m.tableId === tableId && test(m.view),
    timeoutMs,
    true,
  );

const bots = (view: TableView) => view.seats.filter((seat) => seat?.bot === true);

/** Waits until the room's own view of the table passes `test` (the table's state, not a message). */
async function until(test: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('practice tables', () => {
  it('a person watching: house bots, marked as bots, fill the seats and play hands; the audit balances', async () => {
    const r = await start([practice('p-holdem', 'holdem', 'no-limit')]);
    const { client } = await signedUp(r);
    await client.ok('table-open', { tableId: 'p-holdem' });
    const full = await snapshot(client, 'p-holdem', (view) => bots(view).length === 3);
    expect(bots(full.view).map((seat) => seat!.name)).toEqual([0, 1, 2].map(houseBotName));
    const summaries = async (n: number) => {
      for (let i = 0; i < n; i++)
        await client.next((m) => m.op === 'hand-summary' && m.tableId === 'p-holdem', 20_000);
    };
    await summaries(3);
    const audit = await r.server.storage.audit();
    expect(audit.problems).toEqual([]);
    expect(audit.conserved).toBe(true);
  });

  it('when the person stops watching, the bots finish their hand and leave; back when he returns', async () => {
    const r = await start([practice('p-stud', 'stud', 'fixed-limit')]);
    const { client } = await signedUp(r);
    await client.ok('table-open', { tableId: 'p-stud' });
    const table = r.server.lobby.table('p-stud')!;
    await client.next((m) => m.op === 'hand-summary', 20_000);
    await client.ok('table-close', { tableId: 'p-stud' });
    // A bot stops watching once its cash-out is stored, a moment after its seat is free.
    const gone = () => table.audience().accounts.length === 0 && table.audience().anonymous === 0;
    await until(() => bots(table.view(null)).length === 0 && table.view(null).hand === null && gone());
    // Nobody there: no hand is dealt.
    const handsBefore = table.summary().handsPerHour;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(table.summary().handsPerHour).toBe(handsBefore);
    await client.ok('table-open', { tableId: 'p-stud' });
    await snapshot(client, 'p-stud', (view) => bots(view).length === 3);
    expect((await r.server.storage.audit()).conserved).toBe(true);
  });

  it('a person who arrives finds a free seat, and a bot gives its seat up after its hand', async () => {
    // The person does not act: his clock runs out quickly.
    const r = await start([
      { ...practice('p-draw', 'draw32', 'fixed-limit'), clocks: { ...clocks, actionMs: 200, timeBankMs: 0 } },
    ]);
    const table = r.server.lobby.table('p-draw')!;
    const { client } = await signedUp(r);
    await client.ok('table-open', { tableId: 'p-draw' });
    const full = await snapshot(client, 'p-draw', (view) => bots(view).length === 3);
    // Five seats, three bots: two free.
    const free = full.view.seats.findIndex((seat) => seat === null);
    expect(full.view.seats.filter((seat) => seat === null)).toHaveLength(2);
    await client.ok('seat-take', { tableId: 'p-draw', seat: free, buyIn: 2000 });
    const seatedAt = client.received.length;
    await until(() => bots(table.view(null)).length === 2);
    // A hand ended since he sat (the one the bot finished before leaving, or a later one): counted from
    // the messages already received, so that a summary that came while waiting above is not missed.
    await until(() => client.received.slice(seatedAt).some((m) => m.op === 'hand-summary'), 60_000);
    expect(table.view(null).seats.filter((seat) => seat === null).length).toBeGreaterThanOrEqual(2);
    expect((await r.server.storage.audit()).conserved).toBe(true);
  });

  it('an anonymous spectator counts as a person watching', async () => {
    const r = await start([practice('p-omaha', 'omaha', 'pot-limit', 2)]);
    const table = r.server.lobby.table('p-omaha')!;
    const unsubscribe = table.subscribe(null, () => undefined);
    await until(() => bots(table.view(null)).length === 2);
    unsubscribe();
    await until(() => bots(table.view(null)).length === 0);
  });

  it('no house bots at a table the table set does not ask for them at, even with people watching', async () => {
    const r = await start([{ ...practice('plain', 'holdem', 'no-limit'), houseBots: undefined }]);
    const { client } = await signedUp(r);
    await client.ok('table-open', { tableId: 'plain' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      r.server.lobby
        .table('plain')!
        .view(null)
        .seats.every((seat) => seat === null),
    ).toBe(true);
  });

  it("nobody can sign up under a house bot's name", async () => {
    const r = await start([practice('p-holdem', 'holdem', 'no-limit')]);
    const client = await TestClient.connect(r);
    const answer = await client.request('signup', { name: houseBotName(0), password: 'correct horse' });
    expect(answer.op).toBe('error');
    const bot = await client.request('login', { name: houseBotName(0), password: '!' });
    expect(bot.op).toBe('error');
  });

  it('a fresh room offers a play-money practice table of every game', () => {
    const practiceTables = defaultTableSet().filter((config) => houseBotsOf(config) > 0);
    expect(practiceTables.map((config) => config.game).sort()).toEqual([...ROOM_GAMES].sort());
    for (const config of practiceTables) expect(config.currency).toBe('play');
    expect(
      defaultTableSet()
        .filter((config) => config.currency === 'real')
        .every((c) => houseBotsOf(c) === 0),
    ).toBe(true);
  });

  it("the bots' seats are cashed out by the crash rule like anyone's: nothing left at the tables, the audit balances", async () => {
    const r = await start([practice('p-telesina', 'telesina', 'fixed-limit')]);
    const { client } = await signedUp(r);
    await client.ok('table-open', { tableId: 'p-telesina' });
    await client.next((m) => m.op === 'hand-summary', 20_000);
    expect((await r.server.storage.seats()).length).toBeGreaterThanOrEqual(3);
    await r.server.stop();
    const storage = await openMigratedSqliteStorage({ dataDir: r.dataDir });
    try {
      expect(await storage.seats()).toEqual([]);
      expect((await storage.audit()).conserved).toBe(true);
      const bot = await storage.userByName(houseBotName(0));
      expect((await storage.balances(bot!.id)).play).toBeGreaterThan(0);
    } finally {
      await storage.close();
    }
  });

  it('a table set refuses house bots at real money, and more bots than leave two seats free', () => {
    expect(() => {
      checkTableSet([{ ...practice('r', 'holdem', 'no-limit'), currency: 'real' } as never]);
    }).toThrow(/play money/);
    expect(() => {
      checkTableSet([practice('x', 'draw32', 'fixed-limit', 4) as never]);
    }).toThrow(/at most 3/);
    expect(() => {
      checkTableSet([practice('ok', 'draw32', 'fixed-limit', 3) as never]);
    }).not.toThrow();
  });
});
