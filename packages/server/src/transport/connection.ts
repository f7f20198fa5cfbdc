/**
 * One client connection: its session (once logged in), its table subscriptions, its rate limit and
 * its request queue (requests of one connection run one at a time, in order, so acks come back in the
 * order of the requests; only RATE_LIMITED answers jump the queue). The socket is behind a tiny interface so the hub can be driven without one.
 */
import type { ServerMessage } from '@felt/protocol';
import type { Session } from '../accounts/accounts.js';
import { LOCAL_CALLER, type Caller } from '../accounts/login-throttle.js';
import { textFrame } from './frame.js';
import { TokenBucket, type RateLimit } from './rate-limit.js';

/** What a connection needs of its socket. */
export interface Socket {
  /** Writes one WebSocket text frame made by {@link textFrame} (made once for many sockets). */
  send(frame: Buffer): void;
  close(code: number, reason: string): void;
  /** Bytes queued and not yet sent (backpressure). */
  readonly bufferedAmount: number;
}

/** A client that lets this much pile up unread is dropped (it would only grow the server's memory). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Requests waiting behind the running one; more are refused with RATE_LIMITED. */
export const MAX_QUEUED_REQUESTS = 32;

let nextConnectionId = 1;

/** Where a connection comes from: its peer, and the session cookie its upgrade carried (a browser). */
export interface Peer {
  readonly caller: Caller;
  readonly cookieToken: string | null;
}

export const LOCAL_PEER: Peer = { caller: LOCAL_CALLER, cookieToken: null };

export class Connection {
  readonly id = nextConnectionId++;
  readonly bucket: TokenBucket;
  session: Session | null = null;
  /** Table id → unsubscribe. */
  readonly tables = new Map<string, () => void>();
  lobbyUnsubscribe: (() => void) | null = null;
  closed = false;
  /** Requests accepted and not yet answered. */
  pending = 0;
  #queue: Promise<void> = Promise.resolve();
  readonly #socket: Socket;
  readonly peer: Peer;

  constructor(socket: Socket, rate: RateLimit, peer: Peer = LOCAL_PEER) {
    this.#socket = socket;
    this.peer = peer;
    this.bucket = new TokenBucket(rate);
  }

  /** Sends a message (silently dropped once closed; a client far behind is disconnected). */
  send(message: ServerMessage): void {
    this.sendFrame(() => textFrame(JSON.stringify(message)));
  }

  /**
   * Sends a message already framed (`frame` is called once, and only when the message goes out): a
   * broadcast serialises and frames each distinct view once, not once per subscriber.
   */
  sendFrame(frame: () => Buffer): void {
    if (this.closed) return;
    if (this.#socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1013, 'too slow: messages piled up');
      return;
    }
    try {
      this.#socket.send(frame());
    } catch {
      this.close(1011, 'send failed');
    }
  }

  /** Runs `task` after the connection's earlier requests. */
  enqueue(task: () => Promise<void>): void {
    this.pending++;
    this.#queue = this.#queue.then(task).finally(() => {
      this.pending--;
    });
  }

  /** Resolves when every queued request has been answered. */
  drained(): Promise<void> {
    return this.#queue;
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.#socket.close(code, reason);
    } catch {
      // already gone
    }
  }
}
