/**
 * Peers by address: which addresses the per-address limits spare (loopback — `felt bots` opens
 * thousands of sockets from 127.0.0.1 — and the operator's trusted ones), and the cap on open TCP
 * connections per address, which covers WebSockets and HTTP requests alike (a half-sent request holds
 * its socket too). Behind trusted load balancers the address is the client's, as they tell it
 * (proxies.ts): from a PROXY header before the socket is counted, or from `X-Forwarded-For`, when only
 * the WebSockets can be counted by client since a proxy's connections carry many clients' requests.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Caller } from '../accounts/login-throttle.js';
import { addressGroup, DEFAULT_IPV6_PREFIX, unmapIpv4 } from './address-groups.js';
import { readProxyHeader, TrustedProxies } from './proxies.js';

export interface AddressOptions {
  /** Addresses exempt from the per-address limits besides loopback (exact, e.g. `10.0.0.5`). */
  readonly trusted?: readonly string[];
  /** Count loopback like any other address (tests of the limits; default false: loopback is exempt). */
  readonly limitLoopback?: boolean;
  /** IPv6 clients are counted by this many leading bits of their address; default 64 (a subscriber's /64). */
  readonly ipv6Prefix?: number;
  /** Open TCP connections per address at most; default 64. */
  readonly maxConnections?: number;
  /** Load balancers whose word on the client's address is taken: addresses or CIDR ranges. */
  readonly proxies?: readonly string[];
  /** The proxies send a PROXY protocol header (v1 or v2) first, rather than `X-Forwarded-For`. */
  readonly proxyProtocol?: boolean;
  /** How long a proxy may take to send its PROXY header; default 5 s. */
  readonly proxyHeaderTimeoutMs?: number;
}

export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;
const DEFAULT_PROXY_HEADER_TIMEOUT_MS = 5000;

/** `::ffff:1.2.3.4` (in any spelling) is `1.2.3.4`. */
export function normalizeAddress(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  return unmapIpv4(address);
}

export function isLoopback(address: string): boolean {
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

export class AddressPolicy {
  readonly maxConnections: number;
  readonly ipv6Prefix: number;
  readonly #trusted: ReadonlySet<string>;
  readonly #limitLoopback: boolean;
  readonly #proxies: TrustedProxies;
  readonly #proxyProtocol: boolean;
  readonly #proxyHeaderTimeoutMs: number;
  readonly #open = new Map<string, number>();
  /** The client behind each socket a proxy opened, as its PROXY header said. */
  readonly #clients = new WeakMap<Socket, string>();

  constructor(options: AddressOptions = {}) {
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
    this.ipv6Prefix = options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
    this.#trusted = new Set((options.trusted ?? []).map(normalizeAddress));
    this.#limitLoopback = options.limitLoopback ?? false;
    this.#proxies = new TrustedProxies(options.proxies ?? []);
    this.#proxyProtocol = options.proxyProtocol ?? false;
    this.#proxyHeaderTimeoutMs = options.proxyHeaderTimeoutMs ?? DEFAULT_PROXY_HEADER_TIMEOUT_MS;
  }

  exempt(address: string): boolean {
    return this.#trusted.has(address) || (!this.#limitLoopback && isLoopback(address));
  }

  /** Who sent `request`: the client behind a trusted proxy, or the peer itself. */
  callerOf(request: IncomingMessage): Caller {
    const address = this.#clientOf(request);
    return { address, group: this.#group(address), exempt: this.exempt(address) };
  }

  #clientOf(request: IncomingMessage): string {
    const socket = request.socket;
    const peer = normalizeAddress(socket.remoteAddress);
    if (this.#proxyProtocol) return this.#clients.get(socket) ?? peer;
    return this.#forwards(peer) ? normalizeAddress(this.#proxies.forwardedFor(request)) : peer;
  }

  /** A proxy that names its clients in `X-Forwarded-For`, request by request. */
  #forwards(peer: string): boolean {
    return !this.#proxyProtocol && this.#proxies.includes(peer);
  }

  /** What the limits count `address` under: itself, or its IPv6 prefix. */
  #group(address: string): string {
    return addressGroup(address, this.ipv6Prefix);
  }

  /** Open TCP connections from the address (and the rest of its IPv6 prefix) now. */
  openFrom(address: string): number {
    return this.#open.get(this.#group(address)) ?? 0;
  }

  /**
   * Counts every TCP connection of `server` by its client and drops those over the per-address cap
   * at once; a trusted proxy's PROXY header is read first (a proxy that sends none is dropped).
   */
  attach(server: Server): void {
    // Node's HTTP server takes a socket through its one 'connection' listener; sockets reach it here
    // once their client is known and admitted.
    const parsers = server.listeners('connection');
    if (parsers.length !== 1)
      throw new Error('the HTTP server must have exactly its own connection listener');
    const parse = parsers[0] as (socket: Socket) => void;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      const peer = normalizeAddress(socket.remoteAddress);
      if (!this.#proxyProtocol || !this.#proxies.includes(peer)) {
        if (this.#forwards(peer) || this.#hold(socket, peer)) parse.call(server, socket);
        else socket.destroy();
        return;
      }
      readProxyHeader(socket, this.#proxyHeaderTimeoutMs).then(
        (client) => {
          const address = client === null ? peer : normalizeAddress(client);
          this.#clients.set(socket, address);
          if (this.#hold(socket, address)) {
            parse.call(server, socket);
            socket.resume();
          } else socket.destroy();
        },
        () => socket.destroy(),
      );
    });
  }

  /**
   * Admits a WebSocket upgrade a forwarding proxy carries, counted by its client until it closes
   * (false: over the cap). Other upgrades were counted with their TCP connection.
   */
  admitUpgrade(request: IncomingMessage): boolean {
    const peer = normalizeAddress(request.socket.remoteAddress);
    return !this.#forwards(peer) || this.#hold(request.socket, this.#clientOf(request));
  }

  /** Counts `socket` against `address`'s group until it closes; false if that would pass the cap. */
  #hold(socket: Socket, address: string): boolean {
    if (this.exempt(address)) return true;
    const group = this.#group(address);
    const open = this.#open.get(group) ?? 0;
    if (open >= this.maxConnections) return false;
    this.#open.set(group, open + 1);
    socket.once('close', () => {
      const left = (this.#open.get(group) ?? 0) - 1;
      if (left > 0) this.#open.set(group, left);
      else this.#open.delete(group);
    });
    return true;
  }
}
