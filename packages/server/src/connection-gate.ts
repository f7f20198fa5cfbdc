/**
 * Holds the connections an HTTP server accepts until the room is ready for them. The server binds its
 * port first — so that a start whose port is taken stops before it changes anything — and only then
 * recovers the room; a player connecting meanwhile waits, his bytes unread, instead of reaching tables
 * that are still being recovered.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionGate {
  /** Lets the held connections and every later one through. */
  open(): void;
  /** Drops the held connections (the start failed). */
  drop(): void;
}

/** Call after everything else that wraps the server's 'connection' listener, before it listens. */
export function gateConnections(server: Server): ConnectionGate {
  const listeners = server.listeners('connection');
  if (listeners.length !== 1) throw new Error('the HTTP server must have exactly one connection listener');
  const take = listeners[0] as (socket: Socket) => void;
  server.removeAllListeners('connection');
  const held = new Set<Socket>();
  let open = false;
  server.on('connection', (socket: Socket) => {
    if (open) {
      take.call(server, socket);
      return;
    }
    socket.pause();
    held.add(socket);
    socket.once('close', () => held.delete(socket));
  });
  return {
    open() {
      open = true;
      for (const socket of held) {
        if (socket.destroyed) continue;
        take.call(server, socket);
        socket.resume();
      }
      held.clear();
    },
    drop() {
      for (const socket of held) socket.destroy();
      held.clear();
    },
  };
}
