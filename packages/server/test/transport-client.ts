/**
 * Test helpers for the transport tests: a real server on a real SQLite file in a temp directory, and
 * a WebSocket client (`ws`) that sends requests and waits for their answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AckData, ClientOp, ServerMessage } from '@felt/protocol';
import WebSocket from 'ws';
import { base32Decode, hotp } from '../src/accounts/totp.js';
import type { AdminDatabase } from '../src/ledger/admin.js';
import { startServer, type RunningServer, type ServerOptions } from '../src/server.js';
import { silentLogger } from '../src/log.js';
import { adminGrant } from '../src/staff/roles.js';

/** Cheap scrypt for tests (the production cost is DEFAULT_SCRYPT). */
export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 } as const;

export interface TestRoom {
  readonly server: RunningServer;
  readonly dataDir: string;
  readonly http: string;
  /** The operators' port (`/metrics`, the full `/health`), on loopback. */
  readonly operator: string;
  close(): Promise<void>;
}

/** A room in a fresh folder, or in `options.dataDir` (a room started again where another was). */
export async function startTestRoom(options: ServerOptions = {}): Promise<TestRoom> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'felt-transport-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    synchronous: 'normal',
    webDir: null,
    accounts: { scrypt: TEST_SCRYPT },
    logger: silentLogger,
    metrics: { port: 0 },
    ...options,
  });
  return {
    server,
    dataDir,
    http: `http://127.0.0.1:${server.port}`,
    operator: `http://127.0.0.1:${server.metricsPort ?? 0}`,
    async close() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Answer = Extract<ServerMessage, { op: 'ack' } | { op: 'error' }>;

export class TestClient {
  readonly ws: WebSocket;
  readonly received: ServerMessage[] = [];
  readonly raw: string[] = [];
  #nextId = 1;
  #waiters: { test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  closed = false;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.raw.push(text);
      const message = JSON.parse(text) as ServerMessage;
      this.received.push(message);
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!waiter.test(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
    ws.on('close', () => {
      this.closed = true;
    });
  }

  /** `headers`: extra upgrade headers (a browser's Origin, its Cookie). */
  static connect(room: TestRoom, headers: Record<string, string> = {}): Promise<TestClient> {
    return TestClient.connectTo(roomUrl(room), headers);
  }

  /** A client of the room at `url` (`ws://…`), e.g. a `felt serve` process; `options`: ws's own. */
  static async connectTo(
    url: string,
    headers: Record<string, string> = {},
    options: WebSocket.ClientOptions = {},
  ): Promise<TestClient> {
    const ws = new WebSocket(url, { ...options, headers });
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        resolve();
      });
      ws.once('error', reject);
    });
    return client;
  }

  /** Waits for the first message (received from now on, or already received when `past`) that matches. */
  next<M extends ServerMessage>(
    test: (m: ServerMessage) => m is M,
    timeoutMs?: number,
    past?: boolean,
  ): Promise<M>;
  next(test: (m: ServerMessage) => boolean, timeoutMs?: number, past?: boolean): Promise<ServerMessage>;
  next(test: (m: ServerMessage) => boolean, timeoutMs = 5000, past = false): Promise<ServerMessage> {
    if (past) {
      const found = this.received.find(test);
      if (found) return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error('timed out waiting for a message'));
      }, timeoutMs);
      this.#waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Sends a request and resolves with its answer (ack or error). */
  request(op: ClientOp, fields: Record<string, unknown> = {}): Promise<Answer> {
    const id = this.#nextId++;
    const answer = this.next((m): m is Answer => (m.op === 'ack' || m.op === 'error') && m.id === id);
    this.ws.send(JSON.stringify({ op, id, ...fields }));
    return answer;
  }

  /** Sends a request and returns the ack's data; fails the test on an error. */
  async ok<O extends ClientOp>(op: O, fields: Record<string, unknown> = {}): Promise<AckData[O]> {
    const answer = await this.request(op, fields);
    if (answer.op !== 'ack') throw new Error(`${op} refused: ${answer.code} ${answer.message}`);
    return answer.data as AckData[O];
  }

  /** Sends a raw frame. */
  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  close(): void {
    this.ws.close();
  }
}

let counter = 0;
/** A fresh account name. */
export const uniqueName = (prefix = 'p'): string => `${prefix}${process.pid % 1000}x${++counter}`;

/** The room's WebSocket address, on 127.0.0.1. */
export const roomUrl = (room: TestRoom): string => room.server.url.replace('localhost', '127.0.0.1');

/**
 * An operator signed in with his authenticator's code on the room at `url` (`ws://…`): signed up
 * there, his role granted in `where` (the room's data folder or PostgreSQL database) as `felt admin
 * grant` does.
 */
export async function staffSignedIn(
  url: string,
  where: AdminDatabase,
): Promise<{ client: TestClient; name: string; id: number }> {
  const name = uniqueName('op');
  const player = await TestClient.connectTo(url);
  const { account } = await player.ok('signup', { name, password: 'correct horse' });
  player.close();
  const granted = await adminGrant(where, name, 'operator');
  if (!granted.output.ok) throw new Error(granted.output.error.message);
  const secret = new URL(granted.output.otpauth).searchParams.get('secret')!;
  const client = await TestClient.connectTo(url);
  await client.ok('login', {
    name,
    password: 'correct horse',
    totp: hotp(base32Decode(secret)!, Math.floor(Date.now() / 30_000)),
  });
  return { client, name, id: account.id };
}

export async function signedUp(
  room: TestRoom,
  name = uniqueName(),
): Promise<{ client: TestClient; token: string; id: number }> {
  const client = await TestClient.connect(room);
  const data = await client.ok('signup', { name, password: 'correct horse' });
  return { client, token: data.token, id: data.account.id };
}

/** Polls `probe` until it returns a value (not undefined); generous, so a busy machine cannot fail it. */
export async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out polling');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
