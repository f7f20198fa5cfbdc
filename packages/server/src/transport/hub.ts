/**
 * The hub: every frame from every connection passes here, in this order —
 *
 * 1. the frame: text (binary → BAD_FRAME), at most MAX_FRAME_BYTES (→ BAD_FRAME), JSON object;
 * 2. the rate limit (token bucket per connection → RATE_LIMITED; a flood closes the connection);
 * 3. the schema of the request (`@felt/protocol`, → UNKNOWN_OP / BAD_MESSAGE);
 * 4. authentication (everything but signup, login, resume and ping needs a session → NOT_AUTHENTICATED);
 * 5. the handler (./handlers.ts), whose refusals are typed errors and change nothing.
 *
 * Every request gets exactly one answer: an `ack` with its id, or an `error` with its id (null when the
 * frame had no readable id). A handler that throws is answered INTERNAL and logged; nothing a client
 * sends can take the server down.
 */
import {
  ClientOp,
  ErrorCode,
  MAX_FRAME_BYTES,
  PUBLIC_OPS,
  parseClientFrame,
  type AckData,
  type ClientMessage,
  type ServerMessage,
  SessionEndReason,
} from '@felt/protocol';
import { createLogger, type Logger } from '../log.js';
import type { AccountId } from '../table/types.js';
import { Connection, LOCAL_PEER, MAX_QUEUED_REQUESTS, type Peer, type Socket } from './connection.js';
import type { LatencyRecorder } from './figures.js';
import { isStorageUnavailable } from '../storage/unavailable.js';
import { HANDLERS, RequestError, type Room } from './handlers.js';
import { DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit.js';

export interface HubOptions {
  readonly rate?: RateLimit;
  /** The room's log: unexpected errors, staff actions; default JSON lines on stdout. */
  readonly logger?: Logger;
  /** Told of each unexpected error (the error count of the metrics). */
  readonly onError?: () => void;
  /** Records each accepted action's time from its frame's arrival to its ack. */
  readonly actLatency?: LatencyRecorder;
  /** A connection not logged in is closed after this long (idle sockets cost memory); default 60 s. */
  readonly loginTimeoutMs?: number;
}

/** Every staff request but the live figures, which the console asks for every few seconds. */
const LOGGED_STAFF_OPS: ReadonlySet<string> = new Set(
  Object.values(ClientOp).filter((op) => op.startsWith('staff-') && op !== ClientOp.STAFF_FIGURES),
);

export const DEFAULT_LOGIN_TIMEOUT_MS = 60_000;
/** The close code of a socket that stayed without a session too long. */
export const LOGIN_TIMEOUT_CLOSE = 4008;

export class Hub {
  readonly room: Room;
  readonly rate: RateLimit;
  readonly logger: Logger;
  readonly #onError: () => void;
  readonly #actLatency: LatencyRecorder | null;
  readonly #loginTimeoutMs: number;
  readonly #loginTimers = new Map<Connection, ReturnType<typeof setTimeout>>();
  readonly #connections = new Set<Connection>();
  readonly #byAccount = new Map<AccountId, Set<Connection>>();
  /** Accounts seated (as far as this process knows) at each table: candidates for resume. */
  readonly seatedAt = new Map<AccountId, Set<string>>();
  #shuttingDown = false;

  constructor(room: Room, options: HubOptions = {}) {
    this.room = room;
    this.rate = options.rate ?? DEFAULT_RATE_LIMIT;
    this.#actLatency = options.actLatency ?? null;
    this.#loginTimeoutMs = options.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
    this.logger = options.logger ?? createLogger();
    this.#onError = options.onError ?? (() => undefined);
    room.lobby.onSeatOffer((account, message) => {
      this.sendToAccount(account, message);
    });
    room.tournaments.onNotice((account, notice) => {
      // A tournament seat is a seat like any: `resume` brings the player back to it.
      if (notice.op === 'tournament-seat') {
        const tables = this.seatedAt.get(account) ?? new Set<string>();
        tables.add(notice.tableId);
        this.seatedAt.set(account, tables);
      }
      this.sendToAccount(account, notice);
    });
  }

  /** Work the hub started that failed after its request was answered (a table closing after its hand). */
  logError(message: string, error: unknown, fields: Readonly<Record<string, unknown>> = {}): void {
    this.#onError();
    this.logger.error({ ...fields, err: error }, message);
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Accounts with at least one logged-in connection. */
  get playersOnline(): number {
    return this.#byAccount.size;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** A new socket: greets it with the limits. */
  open(socket: Socket, peer: Peer = LOCAL_PEER): Connection {
    const connection = new Connection(socket, this.rate, peer);
    this.#connections.add(connection);
    connection.send({ op: 'hello', protocol: 1, maxFrameBytes: MAX_FRAME_BYTES, rate: this.rate });
    this.#startLoginTimer(connection);
    return connection;
  }

  /** The socket closed: unsubscribe from everything (seated players become disconnected, keep their seats). */
  closed(connection: Connection): void {
    connection.closed = true;
    this.#connections.delete(connection);
    this.detach(connection);
    this.#stopLoginTimer(connection);
  }

  /** From now, the connection has `loginTimeoutMs` to log in (again) or is closed. */
  #startLoginTimer(connection: Connection): void {
    if (connection.closed || this.#loginTimers.has(connection)) return;
    const timer = setTimeout(() => {
      this.#loginTimers.delete(connection);
      if (connection.session === null) connection.close(LOGIN_TIMEOUT_CLOSE, 'not signed in in time');
    }, this.#loginTimeoutMs);
    timer.unref();
    this.#loginTimers.set(connection, timer);
  }

  #stopLoginTimer(connection: Connection): void {
    const timer = this.#loginTimers.get(connection);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#loginTimers.delete(connection);
  }

  /** One frame from a connection. */
  receive(connection: Connection, data: Buffer | string, isBinary: boolean): void {
    if (connection.closed) return;
    const arrived = performance.now();
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (isBinary) {
      this.#refuseFrame(connection, null, ErrorCode.BAD_FRAME, 'binary frames are not accepted');
      return;
    }
    if (size > MAX_FRAME_BYTES) {
      this.#refuseFrame(connection, null, ErrorCode.BAD_FRAME, `frame over ${MAX_FRAME_BYTES} bytes`);
      return;
    }
    const text = typeof data === 'string' ? data : data.toString('utf8');
    const parsed = parseClientFrame(text);
    const id = parsed.ok ? parsed.message.id : parsed.id;
    const verdict = connection.bucket.take();
    if (verdict === 'abuse') {
      connection.close(1008, 'rate limit');
      return;
    }
    if (verdict === 'refused' || connection.pending >= MAX_QUEUED_REQUESTS) {
      connection.send({
        op: 'error',
        id,
        code: ErrorCode.RATE_LIMITED,
        message: 'too many messages; slow down',
      });
      return;
    }
    if (!parsed.ok) {
      // Through the queue, so that answers keep the order of the requests.
      connection.enqueue(() => {
        connection.send({ op: 'error', id: parsed.id, code: parsed.code, message: parsed.message });
        return Promise.resolve();
      });
      return;
    }
    const message = parsed.message;
    connection.enqueue(() => this.#handle(connection, message, arrived));
  }

  async #handle(connection: Connection, message: ClientMessage, arrived: number): Promise<void> {
    if (connection.closed) return;
    if (this.#shuttingDown) {
      connection.send({
        op: 'error',
        id: message.id,
        code: ErrorCode.SHUTTING_DOWN,
        message: 'the server is stopping',
      });
      return;
    }
    if (connection.session === null && !PUBLIC_OPS.has(message.op)) {
      connection.send({
        op: 'error',
        id: message.id,
        code: ErrorCode.NOT_AUTHENTICATED,
        message: 'log in first',
      });
      return;
    }
    try {
      const handler = HANDLERS[message.op] as (
        hub: Hub,
        connection: Connection,
        message: ClientMessage,
      ) => Promise<AckData[ClientOp]>;
      const data = await handler(this, connection, message);
      connection.send({ op: 'ack', id: message.id, for: message.op, data } as ServerMessage);
      if (message.op === 'act') this.#actLatency?.record(arrived);
      else if (LOGGED_STAFF_OPS.has(message.op)) this.#logStaffRequest(connection, message);
    } catch (error) {
      if (error instanceof RequestError) {
        connection.send({ op: 'error', id: message.id, code: error.code, message: error.message });
      } else if (isStorageUnavailable(error)) {
        // A full disk or the database away: nothing was written, and asking again later will do.
        this.logError('request waits for storage', error, { op: message.op });
        connection.send({
          op: 'error',
          id: message.id,
          code: ErrorCode.STORAGE_UNAVAILABLE,
          message: 'the room cannot write its records now: nothing was changed, try again shortly',
        });
      } else {
        this.logError('request failed', error, {
          op: message.op,
          ...(connection.session !== null ? { account: connection.session.account.id } : {}),
        });
        connection.send({ op: 'error', id: message.id, code: ErrorCode.INTERNAL, message: 'internal error' });
      }
    }
  }

  /** Who asked, and the table or hand it was about: the JSON log's side of the staff audit log. */
  #logStaffRequest(connection: Connection, message: ClientMessage): void {
    const about: Record<string, unknown> = {};
    for (const field of ['tableId', 'handId', 'name', 'transactionId'] as const) {
      if (field in message) about[field] = (message as Record<string, unknown>)[field];
    }
    this.logger.info({ op: message.op, account: connection.session?.account.id, ...about }, 'staff request');
  }

  #refuseFrame(connection: Connection, id: number | null, code: ErrorCode, message: string): void {
    const verdict = connection.bucket.take();
    if (verdict === 'abuse') connection.close(1008, 'rate limit');
    else connection.send({ op: 'error', id, code, message });
  }

  /** Marks the connection as logged in. */
  attach(connection: Connection, session: NonNullable<Connection['session']>): void {
    connection.session = session;
    this.#stopLoginTimer(connection);
    const set = this.#byAccount.get(session.account.id) ?? new Set();
    set.add(connection);
    this.#byAccount.set(session.account.id, set);
  }

  /** Logs the connection out of its session: no more table or lobby messages. */
  detach(connection: Connection): void {
    for (const unsubscribe of connection.tables.values()) unsubscribe();
    connection.tables.clear();
    connection.lobbyUnsubscribe?.();
    connection.lobbyUnsubscribe = null;
    const session = connection.session;
    if (session === null) return;
    const set = this.#byAccount.get(session.account.id);
    set?.delete(connection);
    if (set?.size === 0) this.#byAccount.delete(session.account.id);
    connection.session = null;
    this.#startLoginTimer(connection);
  }

  connectionsOf(account: AccountId): readonly Connection[] {
    return [...(this.#byAccount.get(account) ?? [])];
  }

  sendToAccount(account: AccountId, message: ServerMessage): void {
    for (const connection of this.connectionsOf(account)) connection.send(message);
  }

  /** Sends to every connection, or to those watching `tableId`; returns how many. */
  broadcast(message: ServerMessage, tableId: string | null): number {
    let reached = 0;
    for (const connection of this.#connections) {
      if (tableId !== null && !connection.tables.has(tableId)) continue;
      connection.send(message);
      reached++;
    }
    return reached;
  }

  /** Ends the account's sessions on other connections (password change: all but `keepTokenHash`). */
  endSessions(account: AccountId, keepTokenHash: string | null, reason: SessionEndReason): void {
    for (const connection of this.connectionsOf(account)) {
      if (connection.session?.tokenHash === keepTokenHash) continue;
      this.detach(connection);
      connection.send({ op: 'session-ended', reason });
    }
  }

  /** The session of this token ended (logout): every connection on it is logged out and told. */
  endToken(tokenHash: string, except: Connection | null = null): void {
    for (const connection of [...this.#connections]) {
      if (connection === except || connection.session?.tokenHash !== tokenHash) continue;
      this.detach(connection);
      connection.send({ op: 'session-ended', reason: SessionEndReason.LOGOUT });
    }
  }

  /**
   * Shutdown, first half: refuse new requests, let the running ones finish (bounded by `waitMs`), and
   * tell every client. The caller then disposes the tables and closes storage.
   */
  async shutdown(waitMs: number): Promise<void> {
    this.#shuttingDown = true;
    const drained = Promise.all([...this.#connections].map((connection) => connection.drained()));
    await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    for (const connection of [...this.#connections]) {
      connection.send({ op: 'session-ended', reason: 'shutdown' });
      this.detach(connection);
      connection.close(1001, 'server stopping');
    }
  }
}
