/**
 * Peers by address: which addresses the per-address limits spare (loopback — `felt bots` opens
 * thousands of sockets from 127.0.0.1 — and the operator's trusted ones, e.g. a reverse proxy), and
 * the cap on open TCP connections per address, which covers WebSockets and HTTP requests alike (a
 * half-sent request holds its socket too).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Caller } from '../accounts/login-throttle.js';

export interface AddressOptions {
  /** Addresses exempt from the per-address limits besides loopback (exact, e.g. `10.0.0.5`). */
  readonly trusted?: readonly string[];
  /** Count loopback like any other address (tests of the limits; default false: loopback is exempt). */
  readonly limitLoopback?: boolean;
  /** Open TCP connections per address at most; default 64. */
  readonly maxConnections?: number;
}

export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

/** `::ffff:1.2.3.4` is `1.2.3.4`. */
export function normalizeAddress(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function isLoopback(address: string): boolean {
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

export class AddressPolicy {
  readonly maxConnections: number;
  readonly #trusted: ReadonlySet<string>;
  readonly #limitLoopback: boolean;
  readonly #open = new Map<string, number>();

  constructor(options: AddressOptions = {}) {
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
    this.#trusted = new Set((options.trusted ?? []).map(normalizeAddress));
    this.#limitLoopback = options.limitLoopback ?? false;
  }

  exempt(address: string): boolean {
    return this.#trusted.has(address) || (!this.#limitLoopback && isLoopback(address));
  }

  callerOf(socket: Socket): Caller {
    const address = normalizeAddress(socket.remoteAddress);
    return { address, exempt: this.exempt(address) };
  }

  /** Open TCP connections from the address now. */
  openFrom(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /** Counts every TCP connection of `server` and drops those over the per-address cap at once. */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => {
      const { address, exempt } = this.callerOf(socket);
      if (exempt) return;
      const open = this.openFrom(address);
      if (open >= this.maxConnections) {
        socket.destroy();
        return;
      }
      this.#open.set(address, open + 1);
      socket.once('close', () => {
        const left = this.openFrom(address) - 1;
        if (left > 0) this.#open.set(address, left);
        else this.#open.delete(address);
      });
    });
  }
}
