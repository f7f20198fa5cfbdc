/**
 * The WebSocket side (`ws` 8): every upgrade on the HTTP server becomes a hub connection. Frames up to
 * 1 MiB reach the hub, which refuses anything over MAX_FRAME_BYTES with a typed error; larger frames
 * make `ws` close the connection (1009) without reading them. No compression (no inflation bombs).
 * A ping every 30 s drops connections that stopped answering.
 */
import type { Server as HttpServer } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Hub } from './hub.js';

const MAX_PAYLOAD = 1024 * 1024;
const HEARTBEAT_MS = 30_000;

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export interface WebSocketSide {
  /** Closes every socket and stops accepting. */
  close(): Promise<void>;
}

export function attachWebSocket(server: HttpServer, hub: Hub): WebSocketSide {
  const wss = new WebSocketServer({
    server,
    maxPayload: MAX_PAYLOAD,
    perMessageDeflate: false,
    clientTracking: true,
  });
  const alive = new WeakMap<WebSocket, boolean>();

  wss.on('connection', (socket) => {
    alive.set(socket, true);
    const connection = hub.open(socket);
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

  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) {
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    close: () =>
      new Promise((resolve) => {
        clearInterval(heartbeat);
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => {
          resolve();
        });
      }),
  };
}
