/**
 * The lobby: the default table set covers all 13 games and the five structures with the seat limits of
 * RULES.md §13; a table-set file replaces it; when every table of a kind is full another of the same
 * kind opens, so any number of players finds a seat; waiting lists are offered freed seats.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePhh, phhToText, STRUCTURES, variantOf } from '@felt/engine';
import { ROOM_GAMES, type TableSummary as WireTableSummary, type WaitlistSeatMessage } from '@felt/protocol';
import { describe, expect, it, vi } from 'vitest';
import { defaultTableSet, loadTableSet, tableName } from '../src/lobby/config.js';
import { Lobby, SEAT_OFFER_MS, kindOf, type LobbyOptions } from '../src/lobby/lobby.js';
import { resolveTable, stakesText } from '../src/table/config.js';
import type { Table, TableConfig, TableSummary, TableView } from '../src/table/types.js';
import { signedUp, startTestRoom, uniqueName } from './transport-client.js';

/** A stand-in table whose seats the test fills by hand. */
function fakeTable(config: TableConfig): Table & { seats: (number | null)[] } {
  const resolved = resolveTable(config);
  const seats: (number | null)[] = Array.from({ length: resolved.seatCount }, () => null);
  const summary = (): TableSummary => ({
    id: config.id,
    name: config.name,
    game: config.game,
    structure: config.structure,
    stakes: config.stakes,
    stakesText: resolved.stakesText,
    currency: config.currency,
    seatCount: seats.length,
    seated: seats.filter((s) => s !== null).length,
    free: seats.filter((s) => s === null).length,
    minBuyIn: resolved.minBuyIn,
    maxBuyIn: resolved.maxBuyIn,
    averagePot: 0,
    handsPerHour: 0,
    playing: false,
    paused: false,
  });
  return {
    id: config.id,
    config,
    seats,
    handle: () => Promise.resolve({ ok: true }),
    control: () => Promise.resolve({ ok: true }),
    subscribe: () => () => undefined,
    audience: () => ({ accounts: [], anonymous: 0 }),
    summary,
    view: () => ({ seats: seats.map((s) => (s === null ? null : {})) }) as unknown as TableView,
    lastSummary: () => Promise.resolve(null),
    idle: () => Promise.resolve(),
    dispose: () => Promise.resolve(),
  };
}

describe('the default table set', () => {
  it('covers all 13 games in all five structures, every table valid, ids unique', () => {
    const tables = defaultTableSet();
    for (const game of ROOM_GAMES) {
      for (const structure of STRUCTURES) {
        expect(tables.some((t) => t.game === game && t.structure === structure)).toBe(true);
      }
    }
    expect(new Set(tables.map((t) => t.id)).size).toBe(tables.length);
    for (const t of tables) expect(() => resolveTable(t)).not.toThrow();
    expect(tables.some((t) => t.currency === 'real')).toBe(true);
  });

  it("seat limits per game: hold'em 10, Omaha and stud 8, draw/Americana/Telesina 6, 32-card draw 5", () => {
    const seats = Object.fromEntries(
      ROOM_GAMES.map((g) => [g, resolveTable(defaultTableSet().find((t) => t.game === g)!).seatCount]),
    );
    expect(seats).toMatchObject({
      holdem: 10,
      omaha: 8,
      stud: 8,
      soko: 8,
      draw5: 6,
      americana: 6,
      telesina: 6,
      draw32: 5,
    });
    for (const game of ROOM_GAMES) expect(seats[game]).toBe(variantOf(game).seats);
  });

  it('a table-set file replaces the default; a missing file falls back to it; a broken one is an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-lobby-'));
    const file = join(dir, 'tables.json');
    expect(await loadTableSet(file)).toEqual(defaultTableSet());
    const mine: TableConfig = {
      id: 'mine',
      name: 'Mine',
      game: 'omaha',
      structure: 'pot-limit',
      stakes: { small: 10, big: 20 },
      currency: 'play',
    };
    writeFileSync(file, JSON.stringify({ tables: [mine] }));
    expect(await loadTableSet(file)).toEqual([mine]);
    writeFileSync(file, JSON.stringify({ tables: [mine, mine] }));
    await expect(loadTableSet(file)).rejects.toThrow(/twice/);
    writeFileSync(file, JSON.stringify({ tables: [{ ...mine, game: 'razz' }] }));
    await expect(loadTableSet(file)).rejects.toThrow();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('table names and stakes: big-bet tables by their blinds, limit tables by their bets', () => {
  const config = (structure: TableConfig['structure'], small: number, game: TableConfig['game'] = 'holdem') =>
    ({ id: 't', name: 't', game, structure, stakes: { small, big: 2 * small }, currency: 'play' }) as const;

  it('whole amounts have no decimals, others two', () => {
    expect(stakesText(50, 100, 'play')).toBe('0.50/1');
    expect(stakesText(25, 50, 'real')).toBe('0.25/0.50');
    expect(stakesText(100, 200, 'play')).toBe('1/2');
    expect(stakesText(250, 500, 'real')).toBe('2.50/5');
  });

  it('tournament chips are whole units: their stakes have no decimals', () => {
    expect(stakesText(50, 100, 'chips')).toBe('50/100');
    expect(stakesText(25, 50, 'chips')).toBe('25/50');
  });

  it('no-limit, pot-limit and ½-pot-limit tables: the name holds the blinds, and the stakes text is them', () => {
    expect(tableName(config('no-limit', 100))).toBe("No Limit Hold'em 0.50/1");
    expect(tableName(config('pot-limit', 50, 'omaha'))).toBe('Pot Limit Omaha 0.25/0.50');
    expect(tableName(config('half-pot-limit', 200))).toBe("½ Pot Limit Hold'em 1/2");
    expect(resolveTable(config('no-limit', 100)).stakesText).toBe('0.50/1');
    // Stud games have no blinds: their bring-in and minimum bet.
    expect(resolveTable(config('pot-limit', 100, 'stud')).stakesText).toBe('0.50/1');
  });

  it('limit tables keep their small and big bet', () => {
    expect(tableName(config('fixed-limit', 100))).toBe("Limit Hold'em 1/2");
    expect(tableName(config('spread-limit', 100, 'draw5'))).toBe('Spread Limit 5-card Draw 1/2');
    expect(tableName(config('fixed-limit', 100, 'stud'))).toBe('Limit 7-card Stud 1/2');
  });

  it('GET /api/tables: every big-bet table of the default set named and listed by its blinds, play money too', async () => {
    const room = await startTestRoom({ tables: defaultTableSet() });
    try {
      const body = (await (await fetch(`${room.http}/api/tables`)).json()) as { tables: WireTableSummary[] };
      const bigBet = body.tables.filter((t) =>
        ['no-limit', 'pot-limit', 'half-pot-limit'].includes(t.structure),
      );
      expect(bigBet.length).toBeGreaterThan(0);
      for (const t of bigBet) {
        const blinds = resolveTable(defaultTableSet().find((c) => c.id === t.tableId)!).stakesText;
        expect(t.stakesText).toBe(blinds);
        expect(t.name).toContain(blinds);
      }
      const nl = body.tables.find((t) => t.tableId === 'holdem-nl-play-100')!;
      expect([nl.name, nl.stakesText, nl.stakes.small, nl.structure]).toEqual([
        "No Limit Hold'em 0.50/1 (play)",
        '0.50/1',
        100,
        'no-limit',
      ]);
      const real = body.tables.find((t) => t.tableId === 'holdem-nl-real-50')!;
      expect([real.name, real.stakesText]).toEqual(["No Limit Hold'em 0.25/0.50", '0.25/0.50']);
      const limit = body.tables.find((t) => t.tableId === 'holdem-fl-play-100')!;
      expect([limit.name, limit.stakesText]).toEqual(["Limit Hold'em 1/2 (play)", '1/2']);
    } finally {
      await room.close();
    }
  });

  it('the readable history names the game and stakes the same way', () => {
    const hand = parsePhh(`variant = "NT"
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [10000, 10000]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]
table = "No Limit Hold'em 0.50/1 (play)"`);
    if (!hand.ok) throw new Error(hand.error.message);
    const text = phhToText({ ...hand.value, scale: 2 }, 1, 2);
    if (!text.ok) throw new Error(text.error.message);
    expect(text.value.split('\n').slice(0, 2)).toEqual([
      "Felt Hand #1: No Limit Hold'em 0.50/1 [NT]",
      "Table 'No Limit Hold'em 0.50/1 (play)' 2-max Seat #2 is the button",
    ]);
  });
});

describe('the lobby', () => {
  const base: TableConfig = {
    id: 'hu',
    name: 'Heads-up',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    seats: 2,
  };

  /** A lobby of fake tables (`made`, in the order opened, whose seats a test fills by hand). */
  function fakeLobby(options: Omit<LobbyOptions, 'open'>) {
    const made: ReturnType<typeof fakeTable>[] = [];
    const lobby = new Lobby({
      ...options,
      open: (config) => {
        const t = fakeTable(config);
        made.push(t);
        return t;
      },
    });
    return { lobby, made };
  }

  it('when every table of a kind is full, another of the same kind opens', () => {
    const { lobby, made } = fakeLobby({
      tables: [base],
    });
    made[0]!.seats[0] = 1;
    lobby.seatsChanged('hu');
    expect(lobby.allTables()).toHaveLength(1);
    made[0]!.seats[1] = 2;
    lobby.seatsChanged('hu');
    expect(lobby.allTables().map((t) => t.id)).toEqual(['hu', 'hu-2']);
    expect(kindOf(lobby.table('hu-2')!.config)).toBe(kindOf(base));
    expect(lobby.table('hu-2')!.config.name).toBe('Heads-up #2');
    made[1]!.seats[0] = 3;
    made[1]!.seats[1] = 4;
    void lobby.refresh();
    expect(lobby.allTables().map((t) => t.id)).toEqual(['hu', 'hu-2', 'hu-3']);
  });

  it('the waiting list is offered a freed seat, first come first served', async () => {
    const { lobby, made } = fakeLobby({
      tables: [base],
      maxTables: 1,
    });
    made[0]!.seats[0] = 1;
    made[0]!.seats[1] = 2;
    const offers: [number, WaitlistSeatMessage][] = [];
    lobby.onSeatOffer((account, message) => offers.push([account, message]));
    expect(await lobby.waitlistJoin('hu', 7)).toBe(1);
    expect(await lobby.waitlistJoin('hu', 8)).toBe(2);
    expect(lobby.list()[0]!.waiting).toBe(2);
    await lobby.refresh();
    expect(offers).toEqual([]);
    made[0]!.seats[1] = null;
    await lobby.refresh();
    expect(offers).toEqual([[7, { op: 'waitlist-seat', tableId: 'hu', seat: 1 }]]);
    expect(lobby.list()[0]!.waiting).toBe(1);
  });

  it('a seat offered is the head’s alone for 30 s: the next in line hears of it only if it is still free then', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    try {
      const { lobby, made } = fakeLobby({
        tables: [base],
        maxTables: 1,
      });
      made[0]!.seats[0] = 1;
      const offers: [number, WaitlistSeatMessage][] = [];
      lobby.onSeatOffer((account, message) => offers.push([account, message]));
      await lobby.waitlistJoin('hu', 7);
      await lobby.waitlistJoin('hu', 8);
      await lobby.refresh();
      await lobby.refresh();
      expect(offers.map(([account]) => account)).toEqual([7]);
      vi.setSystemTime(1_000_000 + SEAT_OFFER_MS - 1);
      await lobby.refresh();
      expect(offers.map(([account]) => account)).toEqual([7]);
      vi.setSystemTime(1_000_000 + SEAT_OFFER_MS);
      await lobby.refresh();
      expect(offers).toEqual([
        [7, { op: 'waitlist-seat', tableId: 'hu', seat: 1 }],
        [8, { op: 'waitlist-seat', tableId: 'hu', seat: 1 }],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lobby subscribers get the tables that changed', () => {
    const { lobby, made } = fakeLobby({
      tables: [base, { ...base, id: 'other', seats: 3 }],
    });
    void lobby.refresh();
    const seen: string[] = [];
    lobby.subscribe((message) => {
      if (message.op === 'lobby-table') seen.push(`${message.table.tableId}:${message.table.taken}`);
      else seen.push(`removed ${message.tableId}`);
    });
    void lobby.refresh();
    expect(seen).toEqual([]);
    made[1]!.seats[0] = 5;
    void lobby.refresh();
    expect(seen).toEqual(['other:1']);
  });

  it('over the socket: two players fill a heads-up table, a third finds a seat at a new one', async () => {
    const room = await startTestRoom({ tables: [base] });
    try {
      const players = await Promise.all([signedUp(room), signedUp(room), signedUp(room)]);
      await players[0].client.ok('seat-take', { tableId: 'hu', seat: 0, buyIn: 5000 });
      await players[1].client.ok('seat-take', { tableId: 'hu', seat: 1, buyIn: 5000 });
      const { tables } = await players[2].client.ok('lobby-list');
      const free = tables.find((t) => t.free > 0);
      expect(free?.tableId).toBe('hu-2');
      await players[2].client.ok('seat-take', { tableId: 'hu-2', seat: 0, buyIn: 5000 });
      for (const p of players) p.client.close();
    } finally {
      await room.close();
    }
  });

  it("a table's preview lists who sits there and his stack, in seat order, and nothing of the hand", async () => {
    const room = await startTestRoom({ tables: [{ ...base, seats: 6 }] });
    try {
      const names = [uniqueName('alice'), uniqueName('bob')] as const;
      const [alice, bob, carol] = await Promise.all([
        signedUp(room, names[0]),
        signedUp(room, names[1]),
        signedUp(room),
      ]);
      await alice.client.ok('seat-take', { tableId: 'hu', seat: 3, buyIn: 5000 });
      const one = await carol.client.ok('table-preview', { tableId: 'hu' });
      expect(one.tableId).toBe('hu');
      expect(one.seats).toEqual([
        { seat: 3, name: names[0], stack: 5000, bot: false, status: expect.any(String) as string },
      ]);
      await bob.client.ok('seat-take', { tableId: 'hu', seat: 1, buyIn: 4000 });
      const two = await carol.client.ok('table-preview', { tableId: 'hu' });
      expect(two.seats.map((seat) => [seat.seat, seat.name])).toEqual([
        [1, names[1]],
        [3, names[0]],
      ]);
      // Stacks as a spectator sees them: less what a hand that may have started took in blinds.
      for (const seat of two.seats) {
        expect(Object.keys(seat).sort()).toEqual(['bot', 'name', 'seat', 'stack', 'status']);
        expect(seat.stack).toBeGreaterThan(0);
        expect(seat.stack).toBeLessThanOrEqual(seat.name === names[0] ? 5000 : 4000);
      }
      const missing = await carol.client.request('table-preview', { tableId: 'nowhere' });
      expect(missing.op === 'error' && missing.code).toBe('NO_SUCH_TABLE');
      for (const p of [alice, bob, carol]) p.client.close();
    } finally {
      await room.close();
    }
  });
});
