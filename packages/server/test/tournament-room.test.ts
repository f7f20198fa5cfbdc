/**
 * The room runs tournaments: over a real WebSocket against a running room on a real SQLite file,
 * players list, register and unregister (each bad request a typed error that changes nothing), are told
 * their table, play their tournament hands with the ordinary table ops, are told their place and prize
 * and the end, and the money adds up in the ledger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '@felt/engine';
import type { LegalView, ServerMessage, TournamentDetail, TournamentSummary } from '@felt/protocol';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { holdemDefinition, placesTaken } from './tournament-helpers.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerOptions } from '../src/server.js';
import { silentLogger } from '../src/log.js';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import { realClock, type PlayerRef } from '../src/table/index.js';
import { TournamentBots } from '../src/tournament/bots.js';
import { TournamentRoom } from '../src/tournament/room.js';
import { signedUp, startTestRoom, TestClient, type TestRoom } from './transport-client.js';

const FAST = { betweenHandsMs: 1, actionMs: 5_000, timeBankMs: 0 } as const;

const SNG: TournamentEntry = {
  id: 'sng3',
  definition: holdemDefinition({ name: 'Three-handed', maxEntrants: 3, buyIn: 1000, fee: 100 }),
};
const REAL: TournamentEntry = {
  id: 'real',
  definition: holdemDefinition({ name: 'Real money', maxEntrants: 3, money: 'real', buyIn: 500, fee: 50 }),
};

let room: TestRoom | null = null;
afterEach(async () => {
  await room?.close();
  room = null;
});

async function open(): Promise<TestRoom> {
  room = await startTestRoom({ tables: [], tournaments: [SNG, REAL], tournamentClocks: FAST });
  return room;
}

type Push<O extends ServerMessage['op']> = Extract<ServerMessage, { op: O }>;

/**
 * Plays every decision the room offers this client once `from` has resolved: all in when it can, else
 * call, else check.
 */
function autoplay(client: TestClient, from: Promise<void> = Promise.resolve()): void {
  client.ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as ServerMessage;
    if (message.op === 'tournament-seat') {
      void client.request('table-open', { tableId: message.tableId });
    } else if (message.op === 'legal-actions') {
      const legal: LegalView = message.legal;
      const action =
        legal.raise !== null
          ? { type: legal.call === null ? 'bet' : 'raise', to: legal.raise.max }
          : legal.call !== null
            ? { type: 'call' }
            : { type: 'check' };
      void from.then(() =>
        client.request('act', { tableId: message.tableId, handId: message.handId, action }),
      );
    }
  });
}

async function openRun(client: TestClient, entry: string): Promise<TournamentSummary> {
  const { tournaments } = await client.ok('tournament-list');
  const run = tournaments.find((t) => t.tournamentId.startsWith(`${entry}@`) && t.state === 'registering');
  if (run === undefined) throw new Error(`no open run of ${entry}`);
  return run;
}

/** The room started again on `first`'s folder (its `close` removes the folder). */
function startAgain(first: TestRoom, options: ServerOptions): Promise<TestRoom> {
  return startTestRoom({ ...options, dataDir: first.dataDir });
}

async function errorCode(client: TestClient, op: Parameters<TestClient['request']>[0], fields: object) {
  const answer = await client.request(op, fields as Record<string, unknown>);
  return answer.op === 'error' ? answer.code : 'ack';
}

describe('the room runs tournaments over the protocol', () => {
  it('lists each table-file sit & go open for registration, with its game, money and entrants', async () => {
    const r = await open();
    const { client } = await signedUp(r);
    const run = await openRun(client, 'sng3');
    expect(run).toMatchObject({
      name: 'Three-handed',
      kind: 'sit-and-go',
      games: [{ game: 'holdem', structure: 'no-limit' }],
      currency: 'play',
      buyIn: 1000,
      fee: 100,
      entrants: 0,
      maxEntrants: 3,
      startsAt: null,
      state: 'registering',
    });
    client.close();
  });

  it('every bad registration request is a typed error and moves no money', async () => {
    const r = await open();
    const { client } = await signedUp(r);
    const run = await openRun(client, 'sng3');
    const before = (await client.ok('balances')).balances;
    const id = run.tournamentId;
    expect(await errorCode(client, 'tournament-register', { tournamentId: 'nope@x' })).toBe(
      'NO_SUCH_TOURNAMENT',
    );
    expect(await errorCode(client, 'tournament-get', { tournamentId: 'nope@x' })).toBe('NO_SUCH_TOURNAMENT');
    expect(await errorCode(client, 'tournament-register', { tournamentId: 'bad id!' })).toBe('BAD_MESSAGE');
    expect(await errorCode(client, 'tournament-unregister', { tournamentId: id })).toBe('NOT_REGISTERED');
    const realRun = await openRun(client, 'real');
    expect(await errorCode(client, 'tournament-register', { tournamentId: realRun.tournamentId })).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect((await client.ok('balances')).balances).toEqual(before);

    const entered = await client.ok('tournament-register', { tournamentId: id });
    expect(entered.balances.play).toBe(before.play - 1100);
    const listed = (await client.ok('tournament-list')).tournaments.find((t) => t.tournamentId === id);
    expect(listed?.registered).toBe(true);
    const other = await signedUp(r);
    expect((await other.client.ok('tournament-get', { tournamentId: id })).tournament.registered).toBe(false);
    other.client.close();
    expect(await errorCode(client, 'tournament-register', { tournamentId: id })).toBe('ALREADY_REGISTERED');
    expect((await client.ok('balances')).balances.play).toBe(before.play - 1100);
    const left = await client.ok('tournament-unregister', { tournamentId: id });
    expect(left.balances).toEqual(before);
    const unstarted = (await client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(unstarted.entrants).toBe(0);
    expect(unstarted.clock).toBeNull();
    expect(unstarted.registered).toBe(false);
    client.close();
  });

  it('a full sit & go starts: each entrant is told his table, plays it over the table ops, and is told his place, prize and the end', async () => {
    const r = await open();
    const players = await Promise.all([signedUp(r), signedUp(r), signedUp(r)]);
    let checked: () => void = () => undefined;
    const play = new Promise<void>((resolve) => {
      checked = resolve;
    });
    for (const p of players) autoplay(p.client, play);
    const id = (await openRun(players[0].client, 'sng3')).tournamentId;
    const before = (await players[0].client.ok('balances')).balances.play;
    const seats = players.map((p) =>
      p.client.next((m): m is Push<'tournament-seat'> => m.op === 'tournament-seat', 10_000),
    );
    const ends = players.map((p) =>
      p.client.next((m): m is Push<'tournament-end'> => m.op === 'tournament-end', 60_000),
    );
    for (const p of players) await p.client.ok('tournament-register', { tournamentId: id });

    const seated = await Promise.all(seats);
    expect(new Set(seated.map((s) => s.tableId)).size).toBe(1);
    expect(new Set(seated.map((s) => s.seat)).size).toBe(3);
    expect(seated.every((s) => s.tournamentId === id && !s.moved)).toBe(true);

    // Registration is closed once it runs; the entry's next run is open at once.
    const late = await signedUp(r);
    expect(await errorCode(late.client, 'tournament-register', { tournamentId: id })).toBe(
      'REGISTRATION_CLOSED',
    );
    expect(await errorCode(players[0].client, 'tournament-unregister', { tournamentId: id })).toBe(
      'TOURNAMENT_STARTED',
    );
    expect((await openRun(late.client, 'sng3')).tournamentId).not.toBe(id);
    // Players do not take seats at tournament tables themselves.
    expect(
      await errorCode(late.client, 'seat-take', { tableId: seated[0]!.tableId, seat: 0, buyIn: 1000 }),
    ).toBe('WRONG_STATE');
    checked();

    const ended = await Promise.all(ends);
    expect(ended.every((e) => e.state === 'finished')).toBe(true);
    const detail: TournamentDetail = (await players[0].client.ok('tournament-get', { tournamentId: id }))
      .tournament;
    expect(detail.state).toBe('finished');
    expect(placesTaken(detail.results)).toEqual([1, 2, 3]);
    // Three entrants: winner takes all (docs/tournaments.md, the standard table).
    const pool = 3 * 1000;
    expect(detail.prizes).toEqual([pool]);
    expect(detail.results.reduce((sum, p) => sum + p.prize, 0)).toBe(pool);
    expect(ended[0]!.results).toEqual(detail.results);

    for (const [i, p] of players.entries()) {
      const outs = p.client.received.filter((m): m is Push<'tournament-out'> => m.op === 'tournament-out');
      const mine = detail.results.find((x) => x.account === p.id)!;
      expect(outs.map((o) => o.result)).toEqual([mine]);
      const play = (await p.client.ok('balances')).balances.play;
      expect(play, `player ${i}`).toBe(before - 1100 + mine.prize);
    }
    for (const p of [...players, late]) p.client.close();
  });

  it('a room stopped (SIGTERM) mid-hand and started again on its folder goes on with the same players, stacks and level, and plays to the winner', async () => {
    const slow = { betweenHandsMs: 1, actionMs: 60_000, timeBankMs: 0 };
    const first = await startTestRoom({ tables: [], tournaments: [SNG], tournamentClocks: slow });
    room = first;
    const players = await Promise.all([signedUp(first), signedUp(first), signedUp(first)]);
    // They open their tables but do not act: the first hand waits for a decision.
    for (const p of players) autoplay(p.client, new Promise<void>(() => undefined));
    const id = (await openRun(players[0].client, 'sng3')).tournamentId;
    const before = (await players[0].client.ok('balances')).balances.play;
    const decisions = players.map((p) => p.client.next((m) => m.op === 'legal-actions', 10_000));
    for (const p of players) await p.client.ok('tournament-register', { tournamentId: id });
    await Promise.race(decisions);
    const held = (await players[0].client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(held.state).toBe('running');
    // Levels of three hands, a hand counted when it finishes: while the first is played, three are left
    // (this one included).
    expect(held.clock).toEqual({
      phase: 'level',
      remainingMs: null,
      remainingHands: 3,
      breakNext: false,
      paused: false,
    });

    await first.server.stop();
    const second = await startAgain(first, { tables: [], tournaments: [SNG], tournamentClocks: slow });
    room = second;
    const back = await Promise.all(
      players.map(async (p) => {
        const client = await TestClient.connect(second);
        autoplay(client);
        const resumed = await client.ok('resume', { token: p.token });
        expect(resumed.tables).toHaveLength(1);
        return { client, id: p.id };
      }),
    );
    const ends = back.map((p) =>
      p.client.next((m): m is Push<'tournament-end'> => m.op === 'tournament-end', 60_000),
    );
    const resumed = (await back[0]!.client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(resumed.state).toBe('running');
    expect(resumed.level).toBe(held.level);
    expect(resumed.players).toEqual(held.players);

    await Promise.all(ends);
    const over = (await back[0]!.client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(over.state).toBe('finished');
    expect(placesTaken(over.results)).toEqual([1, 2, 3]);
    for (const p of back) {
      const prize = over.results.find((x) => x.account === p.id)!.prize;
      expect((await p.client.ok('balances')).balances.play).toBe(before - 1100 + prize);
      p.client.close();
    }
    for (const p of players) p.client.close();

    // Started again, the room holds no ended run in memory: the finished one is listed no more, but
    // asked by id it is answered from the store, as it ended.
    await second.server.stop();
    const third = await startAgain(first, { tables: [], tournaments: [SNG], tournamentClocks: slow });
    room = third;
    const client = await TestClient.connect(third);
    await client.ok('resume', { token: players[0].token });
    const listed = (await client.ok('tournament-list')).tournaments.map((t) => t.tournamentId);
    expect(listed).not.toContain(id);
    expect((await client.ok('tournament-get', { tournamentId: id })).tournament).toEqual({
      ...over,
      registered: true,
    });
    expect(await errorCode(client, 'tournament-register', { tournamentId: id })).toBe('ALREADY_REGISTERED');
    client.close();
  }, 90_000);
});

describe('the room keeps the most recent ended runs in memory', () => {
  it('ended runs kept are the last `endedKept`; an older one is listed no more, and its results are read back from the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-tournament-ended-'));
    const storage = await openMigratedSqliteStorage({ file: join(dir, 'felt.db') });
    const clock = realClock();
    const roll = seededRandom(3);
    const bots = new TournamentBots(clock, { thinkMs: 1, roll: () => roll.nextUint32() / 2 ** 32 });
    // Heads-up with three big blinds each: a run is over in a few hands.
    const entry: TournamentEntry = {
      id: 'hu',
      definition: holdemDefinition({
        name: 'Heads-up',
        maxEntrants: 2,
        startingChips: 60,
        buyIn: 100,
        fee: 10,
      }),
    };
    const tournaments = new TournamentRoom({
      storage,
      clock,
      entries: [entry],
      tableClocks: { betweenHandsMs: 1, actionMs: 10_000 },
      endedKept: 2,
      logger: silentLogger,
    });
    try {
      const players: PlayerRef[] = [];
      for (const name of ['ann', 'bob']) {
        const user = await storage.createUser({ name, passwordHash: 'x', passwordSalt: 'x' });
        if (!user.ok) throw new Error(user.error.message);
        await storage.topUp(user.value.id, 10_000);
        players.push({ account: user.value.id, name, bot: true });
      }
      // The room tells each player his table; a bot takes his seat there.
      tournaments.onNotice((account, notice) => {
        if (notice.op !== 'tournament-seat') return;
        const table = tournaments.table(notice.tableId)!;
        bots.seated(
          players.find((p) => p.account === account)!,
          table,
          notice.seat,
        );
      });
      await tournaments.start();
      const ended: { id: string; results: unknown }[] = [];
      for (let run = 0; run < 3; run++) {
        const open = tournaments.all().find((d) => d.phase === 'registering')!;
        for (const p of players) expect((await tournaments.register(open.id, p)).ok).toBe(true);
        await open.done;
        ended.push({ id: open.id, results: open.results() });
      }
      const [oldest, ...recent] = ended as [(typeof ended)[number], ...typeof ended];
      // In memory: the two last ended and the open run; the oldest is gone from the list.
      const listed = tournaments.all().map((d) => d.id);
      expect(listed).toHaveLength(3);
      expect(listed).toEqual(expect.arrayContaining(recent.map((r) => r.id)));
      expect(listed).not.toContain(oldest.id);
      expect(tournaments.get(oldest.id)).toBeUndefined();
      // Asked by id, it is read back from the store as it ended.
      const stored = await tournaments.find(oldest.id);
      expect(stored?.phase).toBe('finished');
      expect(stored?.results()).toEqual(oldest.results);
      expect(stored?.entrants).toBe(2);
      const refused = await tournaments.register(oldest.id, { account: 999_999, name: 'late' });
      expect(refused.ok ? null : refused.error.code).toBe('REGISTRATION_CLOSED');
      expect(await tournaments.find('hu@1970-01-01T00:00:00.000Z')).toBeUndefined();
    } finally {
      bots.stop();
      await tournaments.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
