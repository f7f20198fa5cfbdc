/**
 * The transport against a real server on a real SQLite file with real WebSocket clients: every request
 * answered by an ack or a typed error with its id, authentication before anything else, rate limits,
 * sessions across connections, seats and table views routed to the right connections.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOM_GAMES, STRUCTURES, type ServerMessage } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import { LatencyRecorder, LoopDelayMonitor, type WindowFigures } from '../src/transport/figures.js';
import { TestClient, signedUp, startTestRoom, uniqueName, type TestRoom } from './transport-client.js';
import { listeningPort } from './integration-helpers.js';
import { silentLogger } from '../src/log.js';

let room: TestRoom;

beforeAll(async () => {
  room = await startTestRoom({ rate: { perSecond: 20, burst: 40 }, figuresWindowMs: 1000 });
});

afterAll(async () => {
  await room.close();
});

describe('HTTP', () => {
  it('GET /health answers 200 once the room is ready; the operators’ /health has the figures', async () => {
    const response = await fetch(`${room.http}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', ready: true });
    const body = (await (await fetch(`${room.operator}/health`)).json()) as {
      status: string;
      tables: number;
      eventLoopDelayMs: unknown;
    };
    expect(body.status).toBe('ok');
    expect(body.tables).toBeGreaterThanOrEqual(65);
    // Null until the first 10-second window is complete.
    expect(body).toHaveProperty('eventLoopDelayMs');
    expect(body).toHaveProperty('actLatencyMs');
  });

  it("the event loop's delay is measured over windows: p50 ≤ p99 ≤ max, in milliseconds", async () => {
    const monitor = new LoopDelayMonitor(100);
    try {
      expect(monitor.last).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 350));
      const last = monitor.last;
      expect(last).not.toBeNull();
      expect(last!.p50).toBeGreaterThanOrEqual(0);
      expect(last!.p50).toBeLessThanOrEqual(last!.p99);
      expect(last!.p99).toBeLessThanOrEqual(last!.max);
    } finally {
      monitor.stop();
    }
  });

  it('latencies are reported over windows: p50 ≤ p99 ≤ max in milliseconds, with their count; an empty window counts 0', async () => {
    const recorder = new LatencyRecorder(100);
    const nextWindow = async (after: unknown): Promise<WindowFigures> => {
      while (recorder.last === null || recorder.last === after)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return recorder.last;
    };
    try {
      // Recorded in one go, before the first window can end.
      for (const ms of [1, 2, 3, 40]) recorder.record(performance.now() - ms);
      const first = await nextWindow(null);
      expect(first.count).toBe(4);
      expect(first.p50).toBeGreaterThanOrEqual(1);
      expect(first.p50).toBeLessThanOrEqual(first.p99);
      expect(first.p99).toBeLessThanOrEqual(first.max);
      expect(first.max).toBeGreaterThanOrEqual(40);
      expect(await nextWindow(first)).toEqual({ p50: 0, p99: 0, max: 0, count: 0 });
    } finally {
      recorder.stop();
    }
  });

  it('GET / serves a plain HTML page listing the lobby tables', async () => {
    const response = await fetch(`${room.http}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain('holdem-nl-play-100');
    expect(html).toContain('Telesina');
  });

  it('unknown paths are 404 and other methods 405', async () => {
    expect((await fetch(`${room.http}/nope`)).status).toBe(404);
    expect((await fetch(`${room.http}/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('requests and answers', () => {
  it('the server greets each connection with its limits', async () => {
    const client = await TestClient.connect(room);
    const hello = await client.next((m) => m.op === 'hello', 2000, true);
    expect(hello).toMatchObject({ op: 'hello', protocol: 1, maxFrameBytes: 16384 });
    client.close();
  });

  it('every request gets exactly one answer carrying its id, in order', async () => {
    const client = await TestClient.connect(room);
    const answers = await Promise.all([
      client.request('ping'),
      client.request('balances'),
      client.request('login', { name: 'x', password: 'y' }),
      client.request('ping'),
    ]);
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4]);
    expect(answers.map((a) => a.op)).toEqual(['ack', 'error', 'error', 'ack']);
    client.close();
  });

  it('requests other than signup, login, resume and ping need a session (NOT_AUTHENTICATED)', async () => {
    const client = await TestClient.connect(room);
    for (const op of [
      'balances',
      'top-up',
      'lobby-list',
      'table-open',
      'seat-take',
      'act',
      'history-list',
    ] as const) {
      const answer = await client.request(op, {
        tableId: 'holdem-nl-play-100',
        amount: 5,
        seat: 0,
        buyIn: 5000,
        action: { type: 'fold' },
      });
      expect(answer).toMatchObject({ op: 'error', code: 'NOT_AUTHENTICATED' });
    }
    client.close();
  });

  it('a request that fails its schema gets BAD_MESSAGE naming the field, and changes nothing', async () => {
    const { client } = await signedUp(room);
    const before = await client.ok('balances');
    const answer = await client.request('top-up', { amount: -5 });
    expect(answer).toMatchObject({ op: 'error', code: 'BAD_MESSAGE' });
    expect(answer.op === 'error' && answer.message).toContain('amount');
    expect(await client.ok('balances')).toEqual(before);
    expect(await client.request('no-such-op' as never)).toMatchObject({ op: 'error', code: 'UNKNOWN_OP' });
    client.close();
  });

  it('rate limit: a burst past the token bucket gets RATE_LIMITED and the connection recovers', async () => {
    const client = await TestClient.connect(room);
    const answers = await Promise.all(Array.from({ length: 60 }, () => client.request('ping')));
    const limited = answers.filter((a) => a.op === 'error' && a.code === 'RATE_LIMITED').length;
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThan(60);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await client.request('ping')).op).toBe('ack');
    client.close();
  });

  it('rate limit: a flood far past the limit closes the connection', async () => {
    const client = await TestClient.connect(room);
    for (let i = 0; i < 200; i++) client.sendRaw(JSON.stringify({ op: 'ping', id: i }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.closed).toBe(true);
  });
});

describe('accounts over the socket', () => {
  it('sign-up returns a token; login and resume open the same account elsewhere', async () => {
    const name = uniqueName('acc');
    const { client, token, id } = await signedUp(room, name);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await TestClient.connect(room);
    const login = await other.ok('login', { name, password: 'correct horse' });
    expect(login.account).toEqual({ id, name });
    expect(login.token).not.toBe(token);
    const third = await TestClient.connect(room);
    const resumed = await third.ok('resume', { token });
    expect(resumed.account).toEqual({ id, name });
    expect(await third.request('login', { name, password: 'correct horse' })).toMatchObject({
      code: 'ALREADY_AUTHENTICATED',
    });
    for (const c of [client, other, third]) c.close();
  });

  it('a taken name, a wrong password and a bad token are typed errors', async () => {
    const name = uniqueName('dup');
    const { client } = await signedUp(room, name);
    const other = await TestClient.connect(room);
    expect(await other.request('signup', { name, password: 'whatever123' })).toMatchObject({
      code: 'NAME_TAKEN',
    });
    expect(await other.request('signup', { name: uniqueName(), password: 'short' })).toMatchObject({
      code: 'WEAK_PASSWORD',
    });
    expect(await other.request('login', { name, password: 'wrong password' })).toMatchObject({
      code: 'BAD_CREDENTIALS',
    });
    expect(await other.request('resume', { token: 'A'.repeat(43) })).toMatchObject({ code: 'BAD_TOKEN' });
    client.close();
    other.close();
  });

  it('logout ends the session: the token no longer resumes', async () => {
    const { client, token } = await signedUp(room);
    await client.ok('logout');
    expect(await client.request('balances')).toMatchObject({ code: 'NOT_AUTHENTICATED' });
    const other = await TestClient.connect(room);
    expect(await other.request('resume', { token })).toMatchObject({ code: 'BAD_TOKEN' });
    client.close();
    other.close();
  });

  it('change password needs the old one and ends the other sessions, live ones included', async () => {
    const name = uniqueName('pw');
    const { client, token } = await signedUp(room, name);
    const other = await TestClient.connect(room);
    const otherLogin = await other.ok('login', { name, password: 'correct horse' });
    expect(
      await client.request('change-password', { oldPassword: 'wrong one!', newPassword: 'battery staple' }),
    ).toMatchObject({ code: 'BAD_CREDENTIALS' });
    const ended = other.next((m) => m.op === 'session-ended');
    await client.ok('change-password', { oldPassword: 'correct horse', newPassword: 'battery staple' });
    expect(await ended).toEqual({ op: 'session-ended', reason: 'password-changed' });
    expect(await other.request('balances')).toMatchObject({ code: 'NOT_AUTHENTICATED' });
    expect(await other.request('resume', { token: otherLogin.token })).toMatchObject({ code: 'BAD_TOKEN' });
    // The session that changed it goes on; the new password logs in, the old one not.
    expect((await client.request('balances')).op).toBe('ack');
    const third = await TestClient.connect(room);
    expect((await third.request('resume', { token })).op).toBe('ack');
    const fourth = await TestClient.connect(room);
    expect(await fourth.request('login', { name, password: 'correct horse' })).toMatchObject({
      code: 'BAD_CREDENTIALS',
    });
    expect((await fourth.request('login', { name, password: 'battery staple' })).op).toBe('ack');
    for (const c of [client, other, third, fourth]) c.close();
  });

  it('play money tops up to the ceiling and no further; real money is apart and untouched', async () => {
    const { client } = await signedUp(room);
    const start = await client.ok('balances');
    expect(start.balances).toEqual({ play: 100_000, real: 0 });
    const topped = await client.ok('top-up', { amount: 900_000 });
    expect(topped.balances).toEqual({ play: 1_000_000, real: 0 });
    expect(await client.request('top-up', { amount: 1 })).toMatchObject({ code: 'TOP_UP_LIMIT' });
    expect((await client.ok('balances')).balances).toEqual({ play: 1_000_000, real: 0 });
    client.close();
  });
});

describe('lobby and tables over the socket', () => {
  it('the lobby lists all 13 games and the five structures, with seats and stats', async () => {
    const { client } = await signedUp(room);
    const { tables } = await client.ok('lobby-list');
    expect(new Set(tables.map((t) => t.game))).toEqual(new Set(ROOM_GAMES));
    expect(new Set(tables.map((t) => t.structure))).toEqual(new Set(STRUCTURES));
    for (const t of tables) {
      expect(t.taken + t.free).toBe(t.seats);
      expect(t.averagePot).toBeGreaterThanOrEqual(0);
      expect(t.handsPerHour).toBeGreaterThanOrEqual(0);
    }
    const filtered = await client.ok('lobby-list', { game: 'telesina', structure: 'no-limit' });
    expect(filtered.tables.map((t) => t.tableId)).toEqual(['telesina-nl-play-100']);
    client.close();
  });

  it('seat-take buys in from the balance, seat-leave gives the chips back at once', async () => {
    const { client } = await signedUp(room);
    const tableId = 'omaha-pl-play-100';
    const open = await client.ok('table-open', { tableId });
    expect(open.seat).toBeNull();
    await client.next((m) => m.op === 'table-snapshot', 2000, true);
    const taken = await client.ok('seat-take', { tableId, seat: 3, buyIn: 5000 });
    expect(taken).toEqual({ seat: 3, balances: { play: 95_000, real: 0 } });
    expect(await client.request('seat-take', { tableId, seat: 4, buyIn: 5000 })).toMatchObject({
      code: 'ALREADY_SEATED',
    });
    expect(
      await client.request('seat-take', { tableId: 'no-such-table', seat: 0, buyIn: 5000 }),
    ).toMatchObject({
      code: 'NO_SUCH_TABLE',
    });
    const left = await client.ok('seat-leave', { tableId });
    expect(left.balances).toEqual({ play: 100_000, real: 0 });
    client.close();
  });

  it('a buy-in outside the table limits or beyond the balance is refused and changes nothing', async () => {
    const { client } = await signedUp(room);
    const tableId = 'holdem-nl-play-100';
    expect(await client.request('seat-take', { tableId, seat: 5, buyIn: 10 })).toMatchObject({
      code: 'BAD_BUY_IN',
    });
    expect(
      await client.request('seat-take', { tableId: 'holdem-nl-real-50', seat: 5, buyIn: 2000 }),
    ).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    expect((await client.ok('balances')).balances).toEqual({ play: 100_000, real: 0 });
    client.close();
  });

  it('two players at a table: the hand starts, the actor gets legal actions, an action is acked', async () => {
    const a = await signedUp(room);
    const b = await signedUp(room);
    const spectator = await signedUp(room);
    const tableId = 'holdem-fl-play-100';
    await spectator.client.ok('table-open', { tableId });
    await a.client.ok('seat-take', { tableId, seat: 0, buyIn: 2000, post: 'post', autoPost: true });
    await b.client.ok('seat-take', { tableId, seat: 1, buyIn: 2000, post: 'post', autoPost: true });
    const isLegal = (m: ServerMessage): boolean => m.op === 'legal-actions' && m.tableId === tableId;
    const legal = await Promise.race([
      a.client.next(isLegal, 8000, true).then((m) => ({ who: a, m })),
      b.client.next(isLegal, 8000, true).then((m) => ({ who: b, m })),
    ]);
    if (legal.m.op !== 'legal-actions') throw new Error('expected legal actions');
    expect(legal.m.legal.fold).toBe(true);
    const answer = await legal.who.client.request('act', {
      tableId,
      handId: legal.m.handId,
      action: { type: 'fold' },
    });
    expect(answer.op).toBe('ack');
    // /health counts the accepted action in the server's action latency (frame in → ack out).
    const latency = async (): Promise<{ count: number; p99: number } | null> =>
      (
        (await (await fetch(`${room.operator}/health`)).json()) as {
          actLatencyMs: { count: number; p99: number } | null;
        }
      ).actLatencyMs;
    await expect.poll(async () => (await latency())?.count ?? 0, { timeout: 5000 }).toBeGreaterThan(0);
    // The spectator never receives legal actions and never sees a hidden card.
    await spectator.client.next((m) => m.op === 'table-event' && m.event.type === 'fold', 5000, true);
    expect(spectator.client.received.some((m) => m.op === 'legal-actions')).toBe(false);
    const holes = spectator.client.received.flatMap((m) =>
      m.op === 'table-event' && m.event.type === 'deal-hole' ? m.event.cards : [],
    );
    expect(holes.length).toBeGreaterThan(0);
    expect(holes.every((card) => card === '??')).toBe(true);
    for (const c of [a.client, b.client, spectator.client]) c.close();
  });

  it('a dropped player resumes by token: back at his table with the full current view', async () => {
    const p = await signedUp(room);
    const tableId = 'draw5-nl-play-100';
    await p.client.ok('seat-take', { tableId, seat: 2, buyIn: 5000 });
    p.client.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await TestClient.connect(room);
    const resumed = await again.ok('resume', { token: p.token });
    expect(resumed.tables).toEqual([tableId]);
    const snapshot = await again.next((m) => m.op === 'table-snapshot', 3000, true);
    expect(snapshot.view.you).toBe(2);
    await again.ok('seat-leave', { tableId });
    again.close();
  });
});

describe('stopping', () => {
  it('stop() makes everything durable: every chip at the tables goes back to its owner', async () => {
    const own = await startTestRoom({ logger: silentLogger });
    const dataDir = own.dataDir;
    const a = await signedUp(own);
    const b = await signedUp(own);
    const tableId = 'stud-fl-play-100';
    await a.client.ok('seat-take', { tableId, seat: 0, buyIn: 5000 });
    await b.client.ok('seat-take', { tableId, seat: 1, buyIn: 5000 });
    // A hand is dealt (antes in the pot) before the stop.
    await a.client.next((m) => m.op === 'table-event', 8000, true);
    const ended = a.client.next((m) => m.op === 'session-ended');
    await own.server.stop();
    expect(await ended).toEqual({ op: 'session-ended', reason: 'shutdown' });
    const storage = await openMigratedSqliteStorage({ dataDir });
    try {
      expect(await storage.balances(a.id)).toEqual({ play: 100_000, real: 0 });
      expect(await storage.balances(b.id)).toEqual({ play: 100_000, real: 0 });
      expect(await storage.seats()).toEqual([]);
      expect((await storage.audit()).conserved).toBe(true);
    } finally {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('felt serve', () => {
  // Only that it starts, serves and stops cleanly: how fast is no test's to judge on a busy machine.
  it('listens, answers /health, and on SIGTERM exits with status 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'felt-serve-'));
    const felt = fileURLToPath(new URL('../../cli/bin/felt.js', import.meta.url));
    const child = spawn(process.execPath, [felt, 'serve', '--port', '0', '--data', dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const listening = listeningPort(stdout);
        if (listening !== null) resolve(listening);
      });
      child.once('exit', () => {
        reject(new Error(`exited early: ${stdout}`));
      });
    });
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
