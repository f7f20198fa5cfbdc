/**
 * A connection must send its first request's headers within the headers timeout of its accept,
 * whatever it sends before (nothing, a byte, a request line, a PROXY header a byte at a time).
 * Node's own `headersTimeout` starts when its parser gets the socket, which behind a PROXY-protocol
 * proxy is only once the PROXY header is read (addresses.ts): this deadline starts at the accept
 * and covers both. Later requests on a kept-alive connection are Node's to time.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export function closeSlowHeaders(server: Server, timeoutMs: number): void {
  const deadlines = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    // A socket the server holds no longer keeps the process alive for its deadline.
    timer.unref();
    deadlines.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(timer);
    });
  });
  const headersDone = (request: IncomingMessage): void => {
    clearTimeout(deadlines.get(request.socket));
    deadlines.delete(request.socket);
  };
  server.on('request', headersDone);
  // Not 'checkContinue': a listener of it would take over Node's own `100 Continue` answer.
  server.on('upgrade', headersDone);
}
