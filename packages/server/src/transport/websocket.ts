/**
 * The WebSocket side (`ws` 8): every upgrade on the HTTP server becomes a hub connection. Frames up to
 * 1 MiB reach the hub, which refuses anything over MAX_FRAME_BYTES with a typed error; larger frames
 * make `ws` close the connection (1009) without reading them. No compression (no inflation bombs).
 * A ping every 30 s (a thirtieth of the sockets each second) drops connections that stopped answering.
 *
 * Outgoing messages are whole text frames made once per message view (./frame.ts), gathered per
 * connection until the end of the current tick and written together: an action sends each player of
 * the table several messages in a row (events, clock, legal actions, the ack), which then leave in one
 * write — one system call — instead of being framed by `ws` and written one by one. `ws` still reads
 * every frame and writes its own control frames (pings, pongs, the close), always between whole frames;
 * a connection's frames go out before its close frame. Nothing waits longer than the tick that made it.
 *
 * The upgrade is refused (403) when its Origin header names another site (./browser-security.ts); a
 * socket brings its peer's address and the session cookie of its upgrade to the hub.
 */
import type { Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { AddressPolicy } from './addresses.js';
import { originAllowed } from './browser-security.js';
import type { Socket } from './connection.js';
import { takeFrames } from './frame.js';
import type { Hub } from './hub.js';
import { sessionCookie } from './session-cookie.js';

const MAX_PAYLOAD = 1024 * 1024;
const HEARTBEAT_MS = 30_000;
const HEARTBEAT_SLICES = 30;

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** The hub's view of a ws socket: frames gathered until the end of the tick, then written at once. */
class CorkedSocket implements Socket {
  /**
   * The tick's frames, in slots kept for the socket's life. A fresh list each tick lives until the
   * socket's next message — the next action at its table, half a second later — so that thousands of
   * them outlived the young generation and filled the old one, whose collections then stalled every
   * table (docs/benchmarks.md, sixth session).
   */
  readonly #frames: (Buffer | undefined)[] = [];
  #count = 0;
  readonly #socket: WebSocket;
  readonly #raw: Duplex;
  readonly #flush = (): void => {
    this.flush();
  };

  constructor(socket: WebSocket, raw: Duplex) {
    this.#socket = socket;
    this.#raw = raw;
  }

  get bufferedAmount(): number {
    return this.#socket.bufferedAmount;
  }

  send(frame: Buffer): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    if (this.#count === 0) process.nextTick(this.#flush);
    this.#frames[this.#count++] = frame;
  }

  close(code: number, reason: string): void {
    this.flush();
    this.#socket.close(code, reason);
  }

  /** Writes what the tick gathered (idempotent); dropped once the socket is closing. */
  flush(): void {
    const count = this.#count;
    if (count === 0) return;
    this.#count = 0;
    const data = takeFrames(this.#frames, count);
    if (this.#socket.readyState !== WebSocket.OPEN || this.#raw.destroyed) return;
    this.#raw.write(data);
  }
}

export interface WebSocketSide {
  /** Closes every socket and stops accepting. */
  close(): Promise<void>;
}

export interface WebSocketOptions {
  readonly addresses: AddressPolicy;
  /** Origins allowed besides the room's own (a browser's page elsewhere that may use the room). */
  readonly allowedOrigins: readonly string[];
}

export function attachWebSocket(server: HttpServer, hub: Hub, options: WebSocketOptions): WebSocketSide {
  const wss = new WebSocketServer({
    server,
    maxPayload: MAX_PAYLOAD,
    perMessageDeflate: false,
    clientTracking: true,
    verifyClient: (info, done) => {
      const allowed = originAllowed(info.req.headers.origin, info.req.headers.host, options.allowedOrigins);
      if (!allowed) done(false, 403, 'origin not allowed');
      else if (!options.addresses.admitUpgrade(info.req))
        done(false, 429, 'too many connections from this address');
      else done(true);
    },
  });
  const alive = new WeakMap<WebSocket, boolean>();
  const corked = new WeakMap<WebSocket, CorkedSocket>();
  const slice = new WeakMap<WebSocket, number>();
  let connections = 0;

  wss.on('connection', (socket, request) => {
    alive.set(socket, true);
    slice.set(socket, connections++ % HEARTBEAT_SLICES);
    const wrapped = new CorkedSocket(socket, request.socket);
    corked.set(socket, wrapped);
    const connection = hub.open(wrapped, {
      caller: options.addresses.callerOf(request),
      cookieToken: sessionCookie(request),
    });
    socket.on('pong', () => alive.set(socket, true));
    socket.on('message', (data, isBinary) => {
      try {
        hub.receive(connection, toBuffer(data), isBinary);
      } catch (error) {
        console.error('frame handling failed', error);
      }
    });
    socket.on('close', () => {
      hub.closed(connection);
    });
    socket.on('error', () => {
      // A protocol error (bad frame, too large): ws closes the socket; 'close' follows.
    });
  });
  wss.on('error', () => undefined);

  // Each socket is pinged every HEARTBEAT_MS, a slice of them each second: pinging thousands of
  // sockets at once would stall every table for tens of milliseconds.
  let tick = 0;
  const heartbeat = setInterval(() => {
    tick = (tick + 1) % HEARTBEAT_SLICES;
    for (const socket of wss.clients) {
      if (slice.get(socket) !== tick) continue;
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, HEARTBEAT_MS / HEARTBEAT_SLICES);
  heartbeat.unref();

  return {
    close: () =>
      new Promise((resolve) => {
        clearInterval(heartbeat);
        for (const socket of wss.clients) {
          corked.get(socket)?.flush();
          socket.terminate();
        }
        wss.close(() => {
          resolve();
        });
      }),
  };
}
