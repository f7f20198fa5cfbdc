/**
 * The staff's requests over the real protocol against a running room: refused to anyone not staff
 * (logged out, a player, an account whose role was revoked) — each op sent as a raw frame; for the
 * staff a player's balances, seats, sessions, addresses and last hands, the cashier with a reason, a
 * finished hand with every card and never one still being played, ending a player's sessions, the live
 * figures (those of /metrics), the ledger's audit and the game-security reports; each staff request but
 * the figures in the staff audit log under his id.
 */
import { STAFF_OPS, type ServerMessage } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminIntegrity } from '../src/integrity/admin.js';
import { adminAudit } from '../src/ledger/admin.js';
import { adminRevoke } from '../src/staff/roles.js';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import { handStarted, history } from './storage-contract-helpers.js';
import {
  roomUrl,
  signedUp,
  staffSignedIn,
  TestClient,
  uniqueName,
  startTestRoom,
  type TestRoom,
} from './transport-client.js';

let room: TestRoom;
beforeAll(async () => {
  room = await startTestRoom();
});
afterAll(async () => {
  await room.close();
});

/** Valid fields for each staff op, so that only the caller's standing can refuse it. */
const FIELDS: Record<string, Record<string, unknown>> = {
  'staff-player': { name: 'nobody' },
  'staff-cashier': { name: 'nobody', direction: 'credit', amount: 1, reason: 'test' },
  'staff-hand': { handId: 1 },
  'staff-suspend': { name: 'nobody', suspended: true, reason: 'test' },
  'staff-broadcast': { text: 'test' },
  'staff-end-sessions': { name: 'nobody', reason: 'test' },
  'staff-figures': {},
  'staff-audit': {},
  'staff-integrity': {},
  'staff-pause': { paused: true, reason: 'test' },
  'staff-hands': {},
  'staff-table-open': {
    table: {
      id: 'never',
      name: 'Never',
      game: 'holdem',
      structure: 'no-limit',
      currency: 'play',
      stakes: { small: 100, big: 200 },
    },
    reason: 'test',
  },
  'staff-table-close': { tableId: 'holdem-nl-play-100', reason: 'test' },
  'staff-transaction': { transactionId: 1 },
  'staff-transactions': { name: 'nobody' },
};

const staffClient = () => staffSignedIn(roomUrl(room), room.dataDir);

describe('staff requests (real protocol)', () => {
  it('every staff op is refused logged out (NOT_AUTHENTICATED), to a player and to a revoked staff member (NOT_STAFF)', async () => {
    expect(Object.keys(FIELDS).sort()).toEqual([...STAFF_OPS].sort());
    const anonymous = await TestClient.connect(room);
    const { client: player } = await signedUp(room);
    const { client: revoked, name } = await staffClient();
    expect((await adminRevoke(room.dataDir, name)).exitCode).toBe(0);
    for (const op of STAFF_OPS) {
      const frame = (id: number) => JSON.stringify({ op, id, ...FIELDS[op] });
      for (const [client, code] of [
        [anonymous, 'NOT_AUTHENTICATED'],
        [player, 'NOT_STAFF'],
      ] as const) {
        const answer = client.next((m) => m.op === 'error' && m.id === 900);
        client.sendRaw(frame(900));
        expect(await answer).toMatchObject({ op: 'error', code });
      }
      // The revoke ended his session: the connection was logged out, or is refused as not staff.
      const refused = await revoked.request(op, FIELDS[op]);
      expect(refused.op === 'error' ? refused.code : 'answered').toMatch(/^(NOT_STAFF|NOT_AUTHENTICATED)$/);
    }
    for (const client of [anonymous, player, revoked]) client.close();
  });

  it('staff see a player’s balances, seats and sessions, move his real money with a reason, and see a finished hand with every card — never one in play — each logged under their id', async () => {
    const { client: staff, id: staffId } = await staffClient();
    const playerName = uniqueName('pl');
    const { client: player, id: playerId } = await signedUp(room, playerName);
    expect(await staff.request('staff-player', { name: 'nobody' })).toMatchObject({ code: 'UNKNOWN_USER' });

    const credited = await staff.ok('staff-cashier', {
      name: playerName.toUpperCase(),
      direction: 'credit',
      amount: 2500,
      reason: 'deposit 17',
    });
    expect(credited.balances).toEqual({ play: 100_000, real: 2500 });
    expect(
      await staff.request('staff-cashier', {
        name: playerName,
        direction: 'debit',
        amount: 9999,
        reason: 'x',
      }),
    ).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await player.ok('seat-take', { tableId: 'holdem-nl-play-100', seat: 2, buyIn: 5000 });
    const { player: seen } = await staff.ok('staff-player', { name: playerName });
    expect(seen).toMatchObject({
      id: playerId,
      name: playerName,
      role: null,
      balances: { play: 95_000, real: 2500 },
      seats: [{ tableId: 'holdem-nl-play-100', currency: 'play', amount: 5000 }],
    });
    expect(seen.sessions).toHaveLength(1);
    expect(seen.sessions[0]!.expiresAt).toBeGreaterThan(Date.now());

    // A hand in play and a finished one, written beside the room into its database.
    const storage = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    let inPlay: number;
    let finished: number;
    try {
      const first = await handStarted(storage);
      await storage.settleHand({
        handId: first.hand,
        awards: [{ userId: first.bob, amount: 15 }],
        rake: 0,
        history: history([first.ann, first.bob]),
      });
      finished = first.hand;
      const second = await storage.startHand({
        tableId: 't1',
        currency: 'real',
        description: 'x',
        participants: [
          { userId: first.ann, seat: 1, position: 0 },
          { userId: first.bob, seat: 4, position: 1 },
        ],
        posts: [],
      });
      if (!second.ok) throw new Error(second.error.message);
      inPlay = second.value;
    } finally {
      await storage.close();
    }
    expect((await staff.ok('staff-hand', { handId: finished })).hand).toMatchObject({
      handId: finished,
      phh: 'full phh',
    });
    expect(await staff.request('staff-hand', { handId: inPlay })).toMatchObject({ code: 'NO_SUCH_HAND' });

    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 1000)).filter((entry) => entry.staffId === staffId);
      expect(mine.map((entry) => [entry.action, JSON.parse(entry.detail) as unknown])).toEqual([
        ['cashier-credit', { userId: playerId, amount: 2500, reason: 'deposit 17' }],
        ['player-lookup', { userId: playerId }],
        ['hand-lookup', { handId: finished }],
      ]);
      expect((await log.checkStaffLog()).intact).toBe(true);
    } finally {
      await log.close();
    }
    player.close();
    staff.close();
  });

  it('a suspended player is folded at his turn, cashed out when the hand is over, signed out and refused sign-in until the suspension is lifted; chips are conserved', async () => {
    const { client: staff } = await staffClient();
    const names = [uniqueName('sa'), uniqueName('sb')];
    const players = await Promise.all(names.map((name) => signedUp(room, name)));
    const tableId = 'holdem-fl-play-100';
    for (const [seat, { client }] of players.entries()) {
      await client.ok('seat-take', { tableId, seat, buyIn: 2000, post: 'post', autoPost: true });
    }
    const isLegal = (m: ServerMessage): boolean => m.op === 'legal-actions' && m.tableId === tableId;
    const turn = await Promise.race(
      players.map((player, index) => player.client.next(isLegal, 20_000, true).then(() => index)),
    );
    const suspect = players[turn]!;
    const other = players[1 - turn]!;
    const ended = suspect.client.next((m) => m.op === 'session-ended', 10_000);
    const suspended = await staff.ok('staff-suspend', {
      name: names[turn],
      suspended: true,
      reason: 'collusion report 4',
    });
    expect(suspended.tables).toEqual([tableId]);
    expect(await ended).toMatchObject({ reason: 'suspended' });
    // His turn was now: his hand is folded, and the other player sees it.
    await other.client.next(
      (m) => m.op === 'table-event' && m.event.type === 'fold' && m.tableId === tableId,
      10_000,
      true,
    );
    const seen = async () => (await staff.ok('staff-player', { name: names[turn]! })).player;
    await expect.poll(async () => (await seen()).seats, { timeout: 10_000 }).toEqual([]);
    const after = await seen();
    expect(after.sessions).toEqual([]);
    // Cashed out by the rules: his buy-in back, less what he put in the folded hand (a blind at most).
    expect(after.balances.play).toBeGreaterThan(100_000 - 2000);
    expect(after.balances.play).toBeLessThan(100_000);

    const again = await TestClient.connect(room);
    expect(await again.request('login', { name: names[turn], password: 'correct horse' })).toMatchObject({
      code: 'SUSPENDED',
    });
    expect(await again.request('resume', { token: suspect.token })).toMatchObject({ op: 'error' });
    await staff.ok('staff-suspend', { name: names[turn], suspended: false, reason: 'cleared' });
    await again.ok('login', { name: names[turn], password: 'correct horse' });

    const storage = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      expect((await storage.audit()).problems).toEqual([]);
      const actions = (await storage.staffLog(0, 1000)).map((entry) => entry.action);
      expect(actions.filter((action) => action === 'suspend' || action === 'unsuspend')).toEqual([
        'suspend',
        'unsuspend',
      ]);
    } finally {
      await storage.close();
    }
    for (const client of [again, staff, other.client, suspect.client]) client.close();
  });

  it('a broadcast reaches every connection, or only those watching its table; an unknown table is refused', async () => {
    const { client: staff } = await staffClient();
    const watcher = await signedUp(room);
    const elsewhere = await TestClient.connect(room);
    const tableId = 'holdem-nl-play-100';
    await watcher.client.ok('table-open', { tableId });
    expect(await staff.request('staff-broadcast', { tableId: 'no-such', text: 'x' })).toMatchObject({
      code: 'NO_SUCH_TABLE',
    });
    const isBroadcast = (m: ServerMessage): boolean => m.op === 'broadcast';
    const watcherGets = watcher.client.next(isBroadcast, 10_000);
    const { reached } = await staff.ok('staff-broadcast', {
      tableId,
      text: 'this table closes after the hand',
    });
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(await watcherGets).toEqual({ op: 'broadcast', tableId, text: 'this table closes after the hand' });
    // Frames reach a connection in order: the first broadcast the other one sees is the room's.
    const elsewhereGets = elsewhere.next(isBroadcast, 10_000);
    await staff.ok('staff-broadcast', { text: 'the room restarts at 03:00' });
    expect(await elsewhereGets).toEqual({
      op: 'broadcast',
      tableId: null,
      text: 'the room restarts at 03:00',
    });
    expect(elsewhere.received.filter(isBroadcast)).toHaveLength(1);
    for (const client of [staff, watcher.client, elsewhere]) client.close();
  });
});

/** A gauge or counter's value in Prometheus's text. */
function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no ${name} in /metrics`);
  return Number(line.split(' ')[1]);
}

describe('the console’s requests (real protocol)', () => {
  it('a staff sign-in is told its role (the client offers the console); a player’s is not', async () => {
    const { client: staff } = await staffClient();
    const staffLogin = staff.received.find((m) => m.op === 'ack' && m.for === 'login');
    expect(staffLogin).toMatchObject({ data: { account: { role: 'operator' } } });
    const name = uniqueName('pr');
    (await signedUp(room, name)).client.close();
    const player = await TestClient.connect(room);
    const { account } = await player.ok('login', { name, password: 'correct horse' });
    expect(account).not.toHaveProperty('role');
    for (const client of [staff, player]) client.close();
  });

  it('the live figures are the room’s: /metrics’ tables, players online, connections and hands dealt, with the history of samples', async () => {
    const { client: staff } = await staffClient();
    const { figures } = await staff.ok('staff-figures', {});
    const text = await (await fetch(`${room.operator}/metrics`)).text();
    expect(figures.now.tables).toBe(metric(text, 'felt_tables'));
    expect(figures.now.playersOnline).toBe(metric(text, 'felt_players_online'));
    expect(figures.now.connections).toBe(metric(text, 'felt_connections'));
    expect(figures.now.handsStarted).toBe(metric(text, 'felt_hands_started_total'));
    expect(figures.now.playersOnline).toBeGreaterThanOrEqual(1);
    // The first sample was taken when the room started.
    expect(figures.samples.length).toBeGreaterThanOrEqual(1);
    expect(figures.samples[0]!.at).toBeLessThanOrEqual(figures.now.at);
    expect(figures.failedTables).toEqual([]);
    staff.close();
  });

  it('a player lookup shows his addresses while he is online, his last hands, and whether he is suspended', async () => {
    const { client: staff } = await staffClient();
    const name = uniqueName('lk');
    const { client: player } = await signedUp(room, name);
    const { player: seen } = await staff.ok('staff-player', { name });
    expect(seen.addresses).toEqual(['127.0.0.1']);
    expect(seen.hands).toEqual([]);
    expect(seen.suspendedAt).toBeNull();
    player.close();
    await expect
      .poll(async () => (await staff.ok('staff-player', { name })).player.addresses, { timeout: 5000 })
      .toEqual([]);
    staff.close();
  });

  it('ending a player’s sessions signs him out everywhere and refuses his old token; he may sign in again; it is logged', async () => {
    const { client: staff, id: staffId } = await staffClient();
    const name = uniqueName('es');
    const { client: player, id: playerId, token } = await signedUp(room, name);
    const ended = player.next((m) => m.op === 'session-ended', 10_000);
    expect(await staff.ok('staff-end-sessions', { name, reason: 'password stolen' })).toEqual({ ended: 1 });
    expect(await ended).toMatchObject({ reason: 'ended-by-staff' });
    const again = await TestClient.connect(room);
    expect(await again.request('resume', { token })).toMatchObject({ code: 'BAD_TOKEN' });
    await again.ok('login', { name, password: 'correct horse' });
    expect(await staff.request('staff-end-sessions', { name: 'nobody', reason: 'x' })).toMatchObject({
      code: 'UNKNOWN_USER',
    });
    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 10_000)).filter((entry) => entry.staffId === staffId);
      expect(mine.map((entry) => [entry.action, JSON.parse(entry.detail) as unknown])).toEqual([
        ['end-sessions', { userId: playerId, ended: 1, reason: 'password stolen' }],
      ]);
    } finally {
      await log.close();
    }
    for (const client of [staff, player, again]) client.close();
  });

  it('the audit says conserved with the staff log intact, and the integrity reports read every settled hand — the same as felt admin audit and integrity; both logged', async () => {
    const { client: staff, id: staffId } = await staffClient();
    const { audit } = await staff.ok('staff-audit', {});
    const admin = await adminAudit(room.dataDir);
    expect(admin.exitCode).toBe(0);
    expect(audit).toMatchObject({ conserved: true, problems: [], staffLog: { intact: true } });
    expect(audit.currencies).toEqual((admin.output as { currencies: unknown }).currencies);
    const { report } = await staff.ok('staff-integrity', {});
    const document = (await adminIntegrity(room.dataDir)).output;
    expect(report).toEqual(Object.fromEntries(Object.entries(document).filter(([key]) => key !== 'ok')));
    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 10_000)).filter((entry) => entry.staffId === staffId);
      expect(mine.map((entry) => entry.action)).toEqual(['audit', 'integrity']);
    } finally {
      await log.close();
    }
    staff.close();
  });

  it('a transaction is read with every posting (accounts, amounts, currency, memo, table, hand) summing to 0; a player’s and a hand’s transactions are listed; each lookup logged', async () => {
    const { client: staff, id: staffId } = await staffClient();
    const names = [uniqueName('la'), uniqueName('lb')];
    const [ann, bob] = await Promise.all(names.map((name) => signedUp(room, name)));
    const tableId = 'holdem-nl-play-100';
    await ann!.client.ok('seat-take', { tableId, seat: 5, buyIn: 3000 });
    // A finished hand at another table, written beside the room into its database.
    const storage = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    let handId: number;
    try {
      for (const { id } of [ann!, bob!]) {
        const seated = await storage.buyIn('t-ledger', id, 'play', 1000);
        if (!seated.ok) throw new Error(seated.error.message);
      }
      const started = await storage.startHand({
        tableId: 't-ledger',
        currency: 'play',
        description: 'x',
        participants: [
          { userId: ann!.id, seat: 1, position: 0 },
          { userId: bob!.id, seat: 4, position: 1 },
        ],
        posts: [
          { userId: ann!.id, amount: 50 },
          { userId: bob!.id, amount: 100 },
        ],
      });
      if (!started.ok) throw new Error(started.error.message);
      handId = started.value;
      const settled = await storage.settleHand({
        handId,
        awards: [{ userId: bob!.id, amount: 150 }],
        rake: 0,
        history: history([ann!.id, bob!.id]),
      });
      if (!settled.ok) throw new Error(settled.error.message);
    } finally {
      await storage.close();
    }

    const { transactions } = await staff.ok('staff-transactions', { name: names[0]! });
    // Newest first: the hand, his buy-in at t-ledger, his buy-in at the room's table, his sign-up chips.
    expect(transactions.map((t) => t.kind)).toEqual(['hand', 'buy-in', 'buy-in', 'top-up']);
    for (const transaction of transactions) {
      expect(transaction.sum).toBe(0);
      expect(transaction.postings.reduce((sum, posting) => sum + posting.amount, 0)).toBe(0);
    }
    const buyIn = transactions[2]!;
    const { transaction } = await staff.ok('staff-transaction', { transactionId: buyIn.id });
    expect(transaction).toEqual(buyIn);
    expect(transaction).toMatchObject({
      kind: 'buy-in',
      currency: 'play',
      memo: tableId,
      handId: null,
      sum: 0,
    });
    expect(transaction.postings).toEqual(
      expect.arrayContaining([
        { account: { kind: 'user', userId: ann!.id, userName: names[0] }, amount: -3000 },
        { account: { kind: 'seat', userId: ann!.id, userName: names[0], tableId }, amount: 3000 },
      ]),
    );
    expect(transaction.postings).toHaveLength(2);

    const ofHand = (await staff.ok('staff-transactions', { handId })).transactions;
    expect(ofHand).toHaveLength(1);
    expect(ofHand[0]).toMatchObject({ kind: 'hand', handId, memo: `hand ${handId}`, sum: 0 });
    expect(ofHand[0]!.postings).toEqual(
      expect.arrayContaining([
        { account: { kind: 'seat', userId: ann!.id, userName: names[0], tableId: 't-ledger' }, amount: -50 },
        { account: { kind: 'seat', userId: bob!.id, userName: names[1], tableId: 't-ledger' }, amount: 50 },
      ]),
    );
    expect(ofHand[0]).toEqual(transactions[0]);

    expect(await staff.request('staff-transaction', { transactionId: 999_999_999 })).toMatchObject({
      code: 'NO_SUCH_TRANSACTION',
    });
    expect(await staff.request('staff-transactions', { name: 'nobody' })).toMatchObject({
      code: 'UNKNOWN_USER',
    });
    expect(await staff.request('staff-transactions', { name: names[0]!, handId })).toMatchObject({
      code: 'BAD_MESSAGE',
    });
    expect(await staff.request('staff-transactions', {})).toMatchObject({ code: 'BAD_MESSAGE' });

    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 10_000)).filter((entry) => entry.staffId === staffId);
      expect(mine.map((entry) => [entry.action, JSON.parse(entry.detail) as unknown])).toEqual([
        ['transactions-lookup', { userId: ann!.id, found: 4 }],
        ['transaction-lookup', { transactionId: buyIn.id }],
        ['transactions-lookup', { handId, found: 1 }],
      ]);
    } finally {
      await log.close();
    }
    for (const client of [staff, ann!.client, bob!.client]) client.close();
  });

  it('a paused table starts no hand until resumed and says so in the lobby; a drain pauses every table; each logged', async () => {
    const { client: staff, id: staffId } = await staffClient();
    const tableId = 'holdem-pl-play-100';
    expect(
      await staff.request('staff-pause', { tableId: 'no-such', paused: true, reason: 'x' }),
    ).toMatchObject({
      code: 'NO_SUCH_TABLE',
    });
    const watcher = await signedUp(room);
    const opened = watcher.client.next((m) => m.op === 'table-snapshot' && m.tableId === tableId, 10_000);
    await watcher.client.ok('table-open', { tableId });
    expect(await opened).toMatchObject({ view: { paused: false } });
    const isSnapshot = (paused: boolean) => (m: ServerMessage) =>
      m.op === 'table-snapshot' && m.tableId === tableId && m.view.paused === paused;
    const toldPaused = watcher.client.next(isSnapshot(true), 10_000);
    expect(await staff.ok('staff-pause', { tableId, paused: true, reason: 'dealer change' })).toEqual({
      tables: [tableId],
    });
    // Its watchers are told at once, in the table's view.
    await toldPaused;
    const players = await Promise.all([signedUp(room), signedUp(room)]);
    const started = (m: ServerMessage): boolean => m.op === 'hand-start' && m.tableId === tableId;
    for (const [seat, { client }] of players.entries()) {
      await client.ok('seat-take', { tableId, seat, buyIn: 2000, post: 'post', autoPost: true });
    }
    const row = async () =>
      (await staff.ok('lobby-list', {})).tables.find((table) => table.tableId === tableId);
    await expect.poll(async () => (await row())?.paused, { timeout: 5000 }).toBe(true);
    // Two ready players and the pause between hands (2 s) twice over: still no hand.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(players[0].client.received.filter(started)).toEqual([]);
    const dealt = players[0].client.next(started, 10_000);
    const toldResumed = watcher.client.next(isSnapshot(false), 10_000);
    await staff.ok('staff-pause', { tableId, paused: false, reason: 'dealer back' });
    await toldResumed;
    await dealt;
    watcher.client.close();
    await expect.poll(async () => (await row())?.paused, { timeout: 5000 }).toBe(false);

    const drained = await staff.ok('staff-pause', { paused: true, reason: 'restart at 03:00' });
    expect(drained.tables.length).toBe((await staff.ok('lobby-list', {})).tables.length);
    expect(drained.tables).toContain(tableId);
    await staff.ok('staff-pause', { paused: false, reason: 'restarted' });
    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 10_000)).filter((entry) => entry.staffId === staffId);
      expect(mine.map((entry) => [entry.action, JSON.parse(entry.detail) as unknown])).toEqual([
        ['pause', { tableId, reason: 'dealer change' }],
        ['resume', { tableId, reason: 'dealer back' }],
        ['pause', { tableId: null, reason: 'restart at 03:00' }],
        ['resume', { tableId: null, reason: 'restarted' }],
      ]);
    } finally {
      await log.close();
    }
    for (const client of [staff, ...players.map((p) => p.client)]) client.close();
  });

  it("a table opened from the table file's fields plays; closed, it finishes its hand, cashes its players out and leaves the room; each logged", async () => {
    const { client: staff, id: staffId } = await staffClient();
    const fields = {
      id: 'staff-nl',
      name: 'Evening NL',
      game: 'holdem',
      structure: 'no-limit',
      currency: 'play',
      stakes: { small: 100, big: 200 },
    };
    const watcher = await signedUp(room);
    await watcher.client.ok('lobby-subscribe');
    const listed = watcher.client.next(
      (m) => m.op === 'lobby-table' && m.table.tableId === 'staff-nl',
      10_000,
    );
    expect(await staff.ok('staff-table-open', { table: fields, reason: 'a crowded evening' })).toEqual({
      tableId: 'staff-nl',
    });
    expect(await listed).toMatchObject({
      table: { tableId: 'staff-nl', name: 'Evening NL', stakesText: '0.50/1' },
    });
    for (const [table, code] of [
      [fields, 'BAD_MESSAGE'],
      [{ ...fields, id: 'staff-bad', stakes: { small: 200, big: 100 } }, 'BAD_MESSAGE'],
      [{ ...fields, id: 'staff-bad', game: 'badugi' }, 'BAD_MESSAGE'],
    ] as const) {
      expect(await staff.request('staff-table-open', { table, reason: 'x' })).toMatchObject({ code });
    }
    expect(
      await staff.request('staff-table-close', { tableId: 'practice-holdem', reason: 'x' }),
    ).toMatchObject({
      code: 'WRONG_STATE',
    });
    expect(await staff.request('staff-table-close', { tableId: 'no-such', reason: 'x' })).toMatchObject({
      code: 'NO_SUCH_TABLE',
    });

    const players = await Promise.all([signedUp(room), signedUp(room)]);
    const before = await Promise.all(players.map(({ client }) => client.ok('balances')));
    const started = players[0].client.next((m) => m.op === 'hand-start' && m.tableId === 'staff-nl', 15_000);
    for (const [seat, { client }] of players.entries()) {
      await client.ok('seat-take', { tableId: 'staff-nl', seat, buyIn: 4000, post: 'post', autoPost: true });
    }
    await started;
    // Closed while the hand is in play: the hand goes on to its end.
    const removed = watcher.client.next((m) => m.op === 'lobby-table-removed', 30_000);
    expect(await staff.ok('staff-table-close', { tableId: 'staff-nl', reason: 'quiet again' })).toEqual({
      tableId: 'staff-nl',
    });
    const toAct = await Promise.race(
      players.map(({ client }) =>
        client
          .next((m) => m.op === 'legal-actions' && m.tableId === 'staff-nl', 15_000, true)
          .then(() => client),
      ),
    );
    await toAct.ok('act', { tableId: 'staff-nl', action: { type: 'fold' } });
    const summaries = players.map(({ client }) =>
      client.next((m) => m.op === 'hand-summary' && m.tableId === 'staff-nl', 15_000, true),
    );
    await Promise.all(summaries);
    expect(await removed).toEqual({ op: 'lobby-table-removed', tableId: 'staff-nl' });
    expect((await staff.ok('lobby-list', {})).tables.map((table) => table.tableId)).not.toContain('staff-nl');
    // Each cashed out with what the hand left him: the blinds moved, nothing created or lost.
    const after = await Promise.all(players.map(({ client }) => client.ok('balances')));
    expect(after[0]!.balances.play + after[1]!.balances.play).toBe(
      before[0]!.balances.play + before[1]!.balances.play,
    );
    expect(after.map((a) => a.balances.play)).not.toEqual(before.map((b) => b.balances.play));
    expect((await room.server.storage.audit()).conserved).toBe(true);
    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 10_000)).filter((entry) => entry.staffId === staffId);
      expect(mine.map((entry) => [entry.action, JSON.parse(entry.detail) as unknown])).toEqual([
        ['table-open', { tableId: 'staff-nl', reason: 'a crowded evening' }],
        ['table-close', { tableId: 'staff-nl', reason: 'quiet again' }],
      ]);
    } finally {
      await log.close();
    }
    for (const client of [staff, watcher.client, ...players.map((p) => p.client)]) client.close();
  });

  it('staff list finished hands by player, by table and by when they ended; the lookup is logged with its filter', async () => {
    const { client: staff, id: staffId, name: staffName } = await staffClient();
    const storage = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    let hand: number;
    try {
      const started = await storage.startHand({
        tableId: 'staff-list',
        currency: 'play',
        description: 'listed',
        participants: [{ userId: staffId, seat: 0, position: 0 }],
      });
      if (!started.ok) throw new Error(started.error.message);
      hand = started.value;
      await storage.settleHand({ handId: hand, awards: [], rake: 0, history: history([staffId]) });
    } finally {
      await storage.close();
    }
    const { hands } = await staff.ok('staff-hands', { tableId: 'staff-list' });
    expect(hands).toEqual([
      expect.objectContaining({ handId: hand, tableId: 'staff-list', description: 'listed' }),
    ]);
    const ended = hands[0]!.endedAt;
    expect(
      (await staff.ok('staff-hands', { endedFrom: ended, endedTo: ended })).hands.map((h) => h.handId),
    ).toContain(hand);
    expect((await staff.ok('staff-hands', { tableId: 'staff-list', endedTo: ended - 1 })).hands).toEqual([]);
    // By player: the hands he played, with the other filters applied to them.
    expect((await staff.ok('staff-hands', { name: staffName })).hands.map((h) => h.handId)).toEqual([hand]);
    expect((await staff.ok('staff-hands', { name: staffName, endedTo: ended - 1 })).hands).toEqual([]);
    const otherName = uniqueName('nohands');
    (await signedUp(room, otherName)).client.close();
    expect((await staff.ok('staff-hands', { name: otherName })).hands).toEqual([]);
    expect(await staff.request('staff-hands', { name: 'nobody' })).toMatchObject({ code: 'UNKNOWN_USER' });
    const log = await openMigratedSqliteStorage({ dataDir: room.dataDir });
    try {
      const mine = (await log.staffLog(0, 10_000)).filter((entry) => entry.staffId === staffId);
      expect(mine[0]).toMatchObject({ action: 'hands-lookup' });
      expect(JSON.parse(mine[0]!.detail)).toEqual({ tableId: 'staff-list', found: 1 });
      expect(mine).toHaveLength(6);
    } finally {
      await log.close();
    }
    staff.close();
  });
});
